package dev.clrscope.cli.commands.trace;

import java.util.List;

/**
 * One sample with its stack resolved to names: a thread sample, or anything else a flame graph
 * shows (an allocation tick).
 *
 * @param threadId the sampled thread
 * @param timeMs milliseconds since the trace's start
 * @param weightMs the time the sample stands for (the sampling period)
 * @param frames frame names, root first, leaf last
 */
public record StackSample(long threadId, double timeMs, double weightMs, List<String> frames) {}
