package dev.clrscope.dac;

import dev.clrscope.dac.source.TargetMemory;
import java.lang.reflect.Field;
import java.util.HashSet;
import java.util.Set;

/**
 * A {@link ClrReader} with no DAC behind it, for the tests of what reads through one (a heap
 * object's references, the types a second walk asks for). Its only constructor takes a {@link
 * DacSession}, which only a real runtime's DAC makes, so the reader is allocated without running it
 * and given the fields these tests reach: target memory and the type cache. Anything else a test
 * would reach (the DAC itself) is null: a NullPointerException, never a made-up answer.
 */
final class StandInReader {
  private StandInReader() {}

  /** A reader of {@code memory} whose types are only those {@link #type} adds. */
  static ClrReader over(TargetMemory memory) {
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
      theUnsafe.setAccessible(true);
      Object unsafe = theUnsafe.get(null);
      ClrReader reader =
          ClrReader.class.cast(
              unsafeClass
                  .getMethod("allocateInstance", Class.class)
                  .invoke(unsafe, ClrReader.class));
      set(reader, "memory", memory);
      set(reader, "types", new LongMap<ClrType>());
      set(reader, "notTypes", new HashSet<Long>());
      return reader;
    } catch (ReflectiveOperationException e) {
      throw new LinkageError("ClrReader changed: the stand-in cannot be made", e);
    }
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
    types(reader).put(mt, t);
    return t;
  }

  /** Makes {@code mt} one the reader knows is no method table. */
  static void notAType(ClrReader reader, long mt) {
    notTypes(reader).add(mt);
  }

  @SuppressWarnings("unchecked")
  private static LongMap<ClrType> types(ClrReader reader) {
    return (LongMap<ClrType>) get(reader, "types");
  }

  @SuppressWarnings("unchecked")
  private static Set<Long> notTypes(ClrReader reader) {
    return (Set<Long>) get(reader, "notTypes");
  }

  private static Object get(ClrReader reader, String name) {
    try {
      Field f = ClrReader.class.getDeclaredField(name);
      f.setAccessible(true);
      return f.get(reader);
    } catch (ReflectiveOperationException e) {
      throw new LinkageError("ClrReader changed: no field " + name, e);
    }
  }

  private static void set(ClrReader reader, String name, Object value)
      throws ReflectiveOperationException {
    Field f = ClrReader.class.getDeclaredField(name);
    f.setAccessible(true);
    f.set(reader, value);
  }
}
