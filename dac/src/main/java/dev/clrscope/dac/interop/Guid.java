package dev.clrscope.dac.interop;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.UUID;

/** A COM interface id in its in-memory layout (Data1-3 little-endian, Data4 as bytes). */
public final class Guid {
  private final byte[] bytes;
  private final String text;

  private Guid(String text) {
    UUID u = UUID.fromString(text);
    ByteBuffer b = ByteBuffer.allocate(16);
    long hi = u.getMostSignificantBits();
    b.order(ByteOrder.LITTLE_ENDIAN)
        .putInt((int) (hi >>> 32))
        .putShort((short) (hi >>> 16))
        .putShort((short) hi);
    b.order(ByteOrder.BIG_ENDIAN).putLong(u.getLeastSignificantBits());
    this.bytes = b.array();
    this.text = text;
  }

  /** The GUID written as {@code xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}. */
  public static Guid of(String text) {
    return new Guid(text);
  }

  /** Whether the 16 bytes at {@code p} are this GUID. */
  public boolean matches(Pointer p) {
    return p != null && Arrays.equals(p.getByteArray(0, 16), bytes);
  }

  /** The GUID in native memory, for passing as a {@code REFIID}. */
  public Memory toNative() {
    Memory m = new Memory(16);
    m.write(0, bytes, 0, 16);
    return m;
  }

  @Override
  public String toString() {
    return text;
  }
}
