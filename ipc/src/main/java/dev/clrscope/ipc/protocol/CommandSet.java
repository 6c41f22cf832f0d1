package dev.clrscope.ipc.protocol;

/**
 * The command sets of the diagnostic IPC protocol: the {@code commandSet} byte of every header.
 *
 * <p>Mirrors the table in dotnet/diagnostics {@code ipc-protocol.md}.
 */
public enum CommandSet {
  /** 0x01: write a core dump of the target. */
  DUMP(0x01),
  /** 0x02: start and stop EventPipe sessions. */
  EVENT_PIPE(0x02),
  /** 0x03: attach a profiler, or set one to load at startup. */
  PROFILER(0x03),
  /** 0x04: process information, environment, resume, perf maps, startup hooks. */
  PROCESS(0x04),
  /** 0xFF: the server's replies (OK or Error). */
  SERVER(0xFF);

  private final int code;

  CommandSet(int code) {
    this.code = code;
  }

  /** The byte on the wire. */
  public int code() {
    return code;
  }

  /** The set with this code, or {@code null} if the protocol defines none. */
  public static CommandSet fromCode(int code) {
    for (CommandSet set : values()) {
      if (set.code == code) {
        return set;
      }
    }
    return null;
  }
}
