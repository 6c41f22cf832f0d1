package dev.clrscope.cli.commands.trace;

import dev.clrscope.symbols.Frame;
import java.util.List;

/**
 * One sample with its stack resolved to names: a thread sample, or anything else a flame graph
 * shows (an allocation tick).
 *
 * @param threadId the sampled thread
 * @param timeMs milliseconds since the trace's start
 * @param weightMs the time the sample stands for (the sampling period)
 * @param frames the frames (names, lines where known), root first, leaf last
 */
public record StackSample(long threadId, double timeMs, double weightMs, List<Frame> frames) {}
