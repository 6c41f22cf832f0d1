package dev.clrscope.monitor.gc;

/**
 * Why a GC ran: the runtime's {@code gc_reason} (src/coreclr/gc/gc.h), named as TraceEvent names
 * it. GCStart, GCTriggered and GCGlobalHeapHistory carry the code.
 */
public enum GcReason {
  /** The gen0 allocation budget ran out: the ordinary trigger. */
  AllocSmall(0),
  /** {@code GC.Collect()}, or a tool through the GCHeapCollect keyword. */
  Induced(1),
  /** The OS reported low memory. */
  LowMemory(2),
  /** Unused by current runtimes. */
  Empty(3),
  /** A large-object allocation exceeded the LOH budget. */
  AllocLarge(4),
  /** Out of space on the small object heap. */
  OutOfSpaceSOH(5),
  /** Out of space on the large object heap. */
  OutOfSpaceLOH(6),
  /** {@code GC.Collect(gen, GCCollectionMode.Optimized)}: induced, but the GC may decline. */
  InducedNotForced(7),
  /** GC stress (turned into Induced by the runtime). */
  Internal(8),
  /** Low memory, blocking. */
  InducedLowMemory(9),
  /** {@code GC.Collect(..., compacting: true)}. */
  InducedCompacting(10),
  /** The host reported low memory. */
  LowMemoryHost(11),
  /** Provisional mode asked for a full GC. */
  PMFullGC(12),
  /** The host reported low memory, blocking. */
  LowMemoryHostBlocking(13),
  /** Background GC tuning (SOH). */
  BGCTuningSOH(14),
  /** Background GC tuning (LOH). */
  BGCTuningLOH(15),
  /** Background GC stepping. */
  BGCStepping(16),
  /** {@code GC.Collect} with {@code GCCollectionMode.Aggressive}. */
  InducedAggressive(17);

  private static final GcReason[] BY_CODE = values();

  private final int code;

  GcReason(int code) {
    this.code = code;
  }

  /** The runtime's code. */
  public int code() {
    return code;
  }

  /** Whether code asked for this GC (GC.Collect or a tool) rather than the runtime deciding. */
  public boolean isInduced() {
    return this == Induced
        || this == InducedNotForced
        || this == InducedCompacting
        || this == InducedAggressive
        || this == InducedLowMemory;
  }

  /** The name of a reason code; a code newer than this table reads {@code Reason<N>}. */
  public static String name(long code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[(int) code].name() : "Reason" + code;
  }

  /** The reason for a code, or {@code null} for a code newer than this table. */
  public static GcReason of(long code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[(int) code] : null;
  }
}
