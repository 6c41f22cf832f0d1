package dev.clrscope.ipc.codec;

import java.util.UUID;

/**
 * Converts between {@link UUID} and .NET's 16-byte GUID layout.
 *
 * <pre>
 *  bytes 0-3  Data1 u32 LE | 4-5 Data2 u16 LE | 6-7 Data3 u16 LE | 8-15 Data4, as written
 * </pre>
 */
public final class GuidLayout {
  private GuidLayout() {}

  /** The 16 bytes .NET's {@code Guid.ToByteArray} gives for this GUID. */
  public static byte[] toBytes(UUID value) {
    long msb = value.getMostSignificantBits();
    long lsb = value.getLeastSignificantBits();
    byte[] b = new byte[16];
    int data1 = (int) (msb >>> 32);
    int data2 = (int) (msb >>> 16) & 0xFFFF;
    int data3 = (int) msb & 0xFFFF;
    b[0] = (byte) data1;
    b[1] = (byte) (data1 >>> 8);
    b[2] = (byte) (data1 >>> 16);
    b[3] = (byte) (data1 >>> 24);
    b[4] = (byte) data2;
    b[5] = (byte) (data2 >>> 8);
    b[6] = (byte) data3;
    b[7] = (byte) (data3 >>> 8);
    for (int i = 0; i < 8; i++) {
      b[8 + i] = (byte) (lsb >>> (56 - 8 * i));
    }
    return b;
  }

  /** The GUID whose .NET byte layout starts at {@code offset}. */
  public static UUID fromBytes(byte[] b, int offset) {
    long data1 =
        (b[offset] & 0xFFL)
            | (b[offset + 1] & 0xFFL) << 8
            | (b[offset + 2] & 0xFFL) << 16
            | (b[offset + 3] & 0xFFL) << 24;
    long data2 = (b[offset + 4] & 0xFFL) | (b[offset + 5] & 0xFFL) << 8;
    long data3 = (b[offset + 6] & 0xFFL) | (b[offset + 7] & 0xFFL) << 8;
    long msb = data1 << 32 | data2 << 16 | data3;
    long lsb = 0;
    for (int i = 0; i < 8; i++) {
      lsb = lsb << 8 | (b[offset + 8 + i] & 0xFFL);
    }
    return new UUID(msb, lsb);
  }
}
