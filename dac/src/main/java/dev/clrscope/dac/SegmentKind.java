package dev.clrscope.dac;

/** What a GC segment (or region) holds. */
public enum SegmentKind {
  /** A region of generation 0 (regions only). */
  GEN0,
  /** A region of generation 1 (regions only). */
  GEN1,
  /** A region or segment of generation 2. */
  GEN2,
  /** The ephemeral segment (segments only): generations 2, 1 and 0 in address order. */
  EPHEMERAL,
  /** Large object heap. */
  LARGE,
  /** Pinned object heap. */
  PINNED,
  /** Read-only objects the runtime allocated outside the GC's control. */
  FROZEN
}
