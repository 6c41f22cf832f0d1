package dev.clrscope.ipc.reverse;

import dev.clrscope.ipc.MalformedMessageException;
import dev.clrscope.ipc.codec.PayloadReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;

/**
 * What a runtime sends first when it connects to a diagnostic port.
 *
 * <pre>
 *  0          8                 24         32        34
 *  +----------+-----------------+----------+---------+
 *  | "ADVR_V1\0" | runtime cookie | u64 pid  | u16 0   |
 *  +----------+-----------------+----------+---------+
 * </pre>
 *
 * @param runtimeCookie the runtime instance's GUID (the same one ProcessInfo reports)
 * @param pid the runtime's process id
 */
public record Advertisement(UUID runtimeCookie, long pid) {
  /** The advertisement's size in bytes. */
  public static final int SIZE = 34;

  private static final byte[] MAGIC = "ADVR_V1\0".getBytes(StandardCharsets.US_ASCII);

  /** Decodes and checks the 34 bytes. */
  public static Advertisement decode(byte[] bytes) {
    if (bytes.length != SIZE) {
      throw new MalformedMessageException(0, "expected a 34-byte advertisement");
    }
    if (!Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new MalformedMessageException(0, "expected the advertisement magic \"ADVR_V1\\0\"");
    }
    PayloadReader r =
        new PayloadReader(Arrays.copyOfRange(bytes, MAGIC.length, SIZE), MAGIC.length);
    UUID cookie = r.guid("the runtime cookie");
    long pid = r.u64("the pid");
    r.u16("the reserved field");
    return new Advertisement(cookie, pid);
  }
}
