package dev.clrscope.monitor.profile;

import dev.clrscope.symbols.SourceLine;

/**
 * One method's share of a trace's thread samples.
 *
 * @param name the frame's name ({@code symbols/FrameResolver})
 * @param line the method's hottest line (or, ranking lines, this row's line), or null
 * @param exclusive samples with this method as the innermost frame
 * @param exclusiveCpu of those, the samples of a thread running managed code (CPU), as opposed to
 *     waiting or in native code
 * @param inclusive samples with this method anywhere on the stack (once per sample)
 * @param inclusiveCpu of those, the samples of a thread running managed code
 */
public record MethodSamples(
    String name,
    SourceLine line,
    long exclusive,
    long exclusiveCpu,
    long inclusive,
    long inclusiveCpu) {}
