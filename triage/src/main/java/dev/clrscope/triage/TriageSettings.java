package dev.clrscope.triage;

/**
 * Where triage draws its lines.
 *
 * @param leakShare an object, or the objects of a type, retaining this share of the heap or more is
 *     a leak suspect (Eclipse MAT's default: 0.10)
 * @param minSuspect and at least this many bytes: a small heap has no leak worth a finding
 * @param minWaste heap waste (copies of one string, unused slots of one collection type) of at
 *     least this many bytes is a finding
 * @param lohFreeShare free space in the large object heap of this share of it or more is a finding
 * @param minLohFree and at least this many bytes
 * @param minTimers this many timers or more on one callback are a finding
 * @param minInvocations a delegate calling this many methods or more is a finding
 * @param memory whether to read the heap at all (the graph of a big heap takes seconds of a pause)
 */
public record TriageSettings(
    double leakShare,
    long minSuspect,
    long minWaste,
    double lohFreeShare,
    long minLohFree,
    int minTimers,
    int minInvocations,
    boolean memory) {
  /** The defaults. */
  public static TriageSettings defaults() {
    return new TriageSettings(0.10, 1L << 20, 1L << 20, 0.25, 4L << 20, 1_000, 1_000, true);
  }

  /** These settings with another leak share. */
  public TriageSettings withLeakShare(double share) {
    return new TriageSettings(
        share, minSuspect, minWaste, lohFreeShare, minLohFree, minTimers, minInvocations, memory);
  }

  /** These settings, reading the heap or not. */
  public TriageSettings withMemory(boolean read) {
    return new TriageSettings(
        leakShare, minSuspect, minWaste, lohFreeShare, minLohFree, minTimers, minInvocations, read);
  }
}
