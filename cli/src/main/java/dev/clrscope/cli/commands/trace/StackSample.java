package dev.clrscope.cli.commands.trace;

import java.util.List;

/**
 * One thread sample with its stack resolved to names.
 *
 * @param threadId the sampled thread
 * @param timeMs milliseconds since the trace's start
 * @param weightMs the time the sample stands for (the sampling period)
 * @param frames frame names, root first, leaf last
 */
record StackSample(long threadId, double timeMs, double weightMs, List<String> frames) {}
