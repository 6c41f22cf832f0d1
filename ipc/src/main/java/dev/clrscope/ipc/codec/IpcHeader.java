package dev.clrscope.ipc.codec;

import dev.clrscope.ipc.MalformedMessageException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The 20-byte header in front of every IPC message, request or reply.
 *
 * <pre>
 *  0                14      16   17   18        20
 *  +----------------+-------+----+----+---------+
 *  | "DOTNET_IPC_V1\0" | size | set| id | reserved|
 *  +----------------+-------+----+----+---------+
 *  size (u16 LE) counts the header and the payload, so a message is at most 65,535 bytes.
 * </pre>
 *
 * @param size the whole message's size, header included
 * @param commandSet the command set byte
 * @param commandId the command id byte
 * @param reserved the reserved field, zero on requests
 */
public record IpcHeader(int size, int commandSet, int commandId, int reserved) {
  /** The header's size in bytes. */
  public static final int SIZE = 20;

  /** The largest message the 16-bit size field can describe. */
  public static final int MAX_MESSAGE_SIZE = 0xFFFF;

  private static final byte[] MAGIC = "DOTNET_IPC_V1\0".getBytes(StandardCharsets.US_ASCII);

  /** Validates the fields. */
  public IpcHeader {
    if (size < SIZE || size > MAX_MESSAGE_SIZE) {
      throw new IllegalArgumentException("message size out of range: " + size);
    }
    if ((commandSet & ~0xFF) != 0 || (commandId & ~0xFF) != 0 || (reserved & ~0xFFFF) != 0) {
      throw new IllegalArgumentException("header field out of range");
    }
  }

  /** The number of payload bytes after the header. */
  public int payloadSize() {
    return size - SIZE;
  }

  /** The header's 20 bytes. */
  public byte[] encode() {
    ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
    b.put(MAGIC);
    b.putShort((short) size);
    b.put((byte) commandSet);
    b.put((byte) commandId);
    b.putShort((short) reserved);
    return b.array();
  }

  /**
   * Reads a header, checking the magic and that the size can hold a header.
   *
   * @param bytes at least 20 bytes from {@code offset}
   * @param offset where the header starts
   * @throws MalformedMessageException if the magic or size is wrong
   */
  public static IpcHeader decode(byte[] bytes, int offset) {
    if (bytes.length - offset < SIZE) {
      throw new MalformedMessageException(
          bytes.length - offset, "expected a 20-byte header, got " + (bytes.length - offset));
    }
    if (!Arrays.equals(bytes, offset, offset + MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new MalformedMessageException(0, "expected magic \"DOTNET_IPC_V1\\0\"");
    }
    ByteBuffer b = ByteBuffer.wrap(bytes, offset + MAGIC.length, 6).order(ByteOrder.LITTLE_ENDIAN);
    int size = Short.toUnsignedInt(b.getShort());
    int set = Byte.toUnsignedInt(b.get());
    int id = Byte.toUnsignedInt(b.get());
    int reserved = Short.toUnsignedInt(b.getShort());
    if (size < SIZE) {
      throw new MalformedMessageException(
          MAGIC.length, "size " + size + " is smaller than the 20-byte header");
    }
    return new IpcHeader(size, set, id, reserved);
  }
}
