package dev.clrscope.dac;

import dev.clrscope.dac.source.TargetMemory;

/**
 * A {@link ClrReader} with no DAC behind it, for the tests of what reads through one (a heap
 * object's references, the types a second walk asks for): target memory and the types a test gives.
 * Anything else a test would reach (the DAC itself) is null: a NullPointerException, never a
 * made-up answer.
 */
final class StandInReader {
  private StandInReader() {}

  /** A reader of {@code memory} whose types are only those {@link #type} adds. */
  static ClrReader over(TargetMemory memory) {
    return new ClrReader(memory);
  }

  /**
   * A type of {@code reader}, known to its cache as {@code mt}'s, with {@code desc} as its GC
   * descriptor already read.
   */
  static ClrType type(ClrReader reader, long mt, boolean containsPointers, GcDesc desc) {
    ClrType t = unread(reader, mt, containsPointers);
    t.gcDesc = desc;
    t.gcDescLoaded = true;
    return t;
  }

  /** A type whose GC descriptor is read from the reader's memory when first asked for. */
  static ClrType unread(ClrReader reader, long mt, boolean containsPointers) {
    ClrType t =
        new ClrType(
            reader, mt, "T" + Long.toHexString(mt), 24, 0, containsPointers, false, false, 0, 0, 0);
    reader.knowType(mt, t);
    return t;
  }

  /** Makes {@code mt} one the reader knows is no method table. */
  static void notAType(ClrReader reader, long mt) {
    reader.knowType(mt, null);
  }
}
