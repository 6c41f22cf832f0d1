package dev.clrscope.monitor.profile;

/**
 * What a trace's thread samples add up to.
 *
 * @param samples thread samples with a stack (of the chosen thread, when one is chosen)
 * @param cpu samples of a thread running managed code (SampleProfiler's type Managed)
 * @param external samples of a thread outside managed code: waiting, sleeping or in native code
 *     (type External); CPU plus external is the thread time
 * @param threads distinct threads sampled
 * @param frames stack frames named (the samples' depths added up)
 */
public record SampleTotals(long samples, long cpu, long external, int threads, long frames) {}
