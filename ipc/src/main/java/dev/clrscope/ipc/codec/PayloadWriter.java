package dev.clrscope.ipc.codec;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Builds a request payload in the protocol's little-endian encodings.
 *
 * <p>Strings are {@code u32} UTF-16 code-unit counts that include a terminating NUL, then UTF-16LE
 * data; {@code null} is a count of 0. The runtime rejects a non-null string without its NUL, so an
 * empty string is a count of 1.
 */
public final class PayloadWriter {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream(64);

  /** Appends one byte. */
  public PayloadWriter u8(int value) {
    out.write(value);
    return this;
  }

  /** Appends a one-byte boolean. */
  public PayloadWriter bool(boolean value) {
    return u8(value ? 1 : 0);
  }

  /** Appends a little-endian 16-bit value. */
  public PayloadWriter u16(int value) {
    out.write(value);
    out.write(value >>> 8);
    return this;
  }

  /** Appends a little-endian 32-bit value. */
  public PayloadWriter u32(int value) {
    for (int i = 0; i < 4; i++) {
      out.write(value >>> (8 * i));
    }
    return this;
  }

  /** Appends a little-endian 64-bit value. */
  public PayloadWriter u64(long value) {
    for (int i = 0; i < 8; i++) {
      out.write((int) (value >>> (8 * i)));
    }
    return this;
  }

  /** Appends a NUL-terminated UTF-16LE string with its length prefix; {@code null} is count 0. */
  public PayloadWriter string(String value) {
    if (value == null) {
      return u32(0);
    }
    byte[] data = value.getBytes(StandardCharsets.UTF_16LE);
    u32(data.length / 2 + 1);
    out.writeBytes(data);
    return u16(0);
  }

  /**
   * Appends a GUID in .NET's {@code Guid.ToByteArray} layout (first three groups little-endian).
   */
  public PayloadWriter guid(UUID value) {
    byte[] bytes = GuidLayout.toBytes(value);
    out.writeBytes(bytes);
    return this;
  }

  /** Appends raw bytes, without a length. */
  public PayloadWriter bytes(byte[] data) {
    out.writeBytes(data);
    return this;
  }

  /** The payload so far. */
  public byte[] toByteArray() {
    return out.toByteArray();
  }
}
