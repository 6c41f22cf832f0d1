package dev.clrscope.monitor.gc;

/** How a GC ran, from GCStart's Type field (the runtime's {@code gc_etw_type}). */
public enum GcType {
  /** 0, blocking: the managed threads stay suspended for the whole GC. */
  NonConcurrent(0),
  /** 1, a background gen2 GC: marks and sweeps while managed threads run, with short pauses. */
  Background(1),
  /** 2, an ephemeral GC that ran while a background GC was in progress. */
  Foreground(2);

  private final int code;

  GcType(int code) {
    this.code = code;
  }

  /** The value of GCStart's Type field for this type. */
  public int code() {
    return code;
  }

  /** The name of a type code; an unknown code reads {@code Type<N>}. */
  public static String name(long code) {
    for (GcType t : values()) {
      if (t.code == code) {
        return t.name();
      }
    }
    return "Type" + code;
  }
}
