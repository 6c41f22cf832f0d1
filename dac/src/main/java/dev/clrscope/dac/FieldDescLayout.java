package dev.clrscope.dac;

import dev.clrscope.dac.source.TargetMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The runtime's FieldDesc as 64-bit runtimes from .NET Core to .NET 10 lay it out, 16 bytes: the
 * enclosing type's method table; a word of the field's metadata row (24 bits) and flags, static
 * (bit 24), thread-static (25) and RVA (26); a word of its offset (27 bits) and its element type (5
 * bits). The statics of a type are read with it as one block instead of one DAC call each (which
 * reads the descriptor and works out the field's type, several reads of the core through the data
 * target). Whatever does not read as expected (a descriptor of another type, not static, an RVA
 * field whose offset is kept elsewhere) is left to the DAC.
 */
final class FieldDescLayout {
  /** The only size this layout knows. */
  private static final int SIZE = 16;

  private static final int STATIC = 1 << 24;
  private static final int THREAD_STATIC = 1 << 25;
  private static final int RVA = 1 << 26;
  private static final int OFFSET_MASK = (1 << 27) - 1;

  private FieldDescLayout() {}

  /** The layout of descriptors of {@code size} bytes, or null when it is not this one. */
  static FieldDescLayout of(long size) {
    return size == SIZE ? new FieldDescLayout() : null;
  }

  /**
   * The {@code count} static fields of the type at method table {@code mt} whose descriptors start
   * at {@code at}, or null when they cannot be read or are not all that type's plain statics.
   */
  List<ModuleReader.StaticField> statics(TargetMemory memory, long mt, long at, int count) {
    if (count <= 0 || count > (1 << 20)) {
      return null;
    }
    byte[] bytes = new byte[count * SIZE];
    if (memory.read(at, bytes, 0, bytes.length) != bytes.length) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    List<ModuleReader.StaticField> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int base = i * SIZE;
      int flags = b.getInt(base + 8);
      if (b.getLong(base) != mt || (flags & STATIC) == 0 || (flags & RVA) != 0) {
        return null;
      }
      int word = b.getInt(base + 12);
      out.add(
          new ModuleReader.StaticField(
              at + base,
              (flags & THREAD_STATIC) != 0 ? ClrField.Kind.THREAD_STATIC : ClrField.Kind.STATIC,
              ElementType.of(word >>> 27),
              word & OFFSET_MASK));
    }
    return out;
  }
}
