package dev.clrscope.nettrace.gc;

/** How a GC ran, from GCStart's Type field (the runtime's {@code gc_etw_type}). */
public enum GcType {
  /** Blocking: the managed threads stay suspended for the whole GC. */
  NonConcurrent,
  /** A background gen2 GC: marks and sweeps while managed threads run, with short pauses. */
  Background,
  /** An ephemeral GC that ran while a background GC was in progress. */
  Foreground;

  /** The name of a type code; an unknown code reads {@code Type<N>}. */
  public static String name(long code) {
    return code >= 0 && code < values().length ? values()[(int) code].name() : "Type" + code;
  }
}
