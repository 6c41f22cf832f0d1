package dev.clrscope.ipc.protocol;

import java.util.HexFormat;

/**
 * Every request the diagnostic server understands, as (command set, command id).
 *
 * <p>Newer versions of a command carry more fields; a runtime that predates a version answers
 * {@link DiagnosticServerError#UNKNOWN_COMMAND}, and the client then falls back on the previous
 * one.
 */
public enum IpcCommand {
  /** 0x0101: {@code string path, u32 dumpType, u32 diagnostics}. */
  GENERATE_CORE_DUMP(CommandSet.DUMP, 0x01),
  /** 0x0102: as v1, the last field is a flag set (logging, verbose logging, crash report). */
  GENERATE_CORE_DUMP_2(CommandSet.DUMP, 0x02),
  /** 0x0103: as v2; an error reply also carries a message string. */
  GENERATE_CORE_DUMP_3(CommandSet.DUMP, 0x03),

  /** 0x0201: {@code u64 sessionId}; answered with the same id once the session has stopped. */
  STOP_TRACING(CommandSet.EVENT_PIPE, 0x01),
  /** 0x0202: {@code u32 bufferMB, u32 format, array<provider>}. */
  COLLECT_TRACING(CommandSet.EVENT_PIPE, 0x02),
  /** 0x0203: adds {@code bool requestRundown} after the format. */
  COLLECT_TRACING_2(CommandSet.EVENT_PIPE, 0x03),
  /** 0x0204: adds {@code bool requestStackwalk} after requestRundown. */
  COLLECT_TRACING_3(CommandSet.EVENT_PIPE, 0x04),
  /** 0x0205: the rundown flag becomes a {@code u64} rundown keyword. */
  COLLECT_TRACING_4(CommandSet.EVENT_PIPE, 0x05),
  /** 0x0206 (.NET 10): a leading session type and a per-provider event-id filter. */
  COLLECT_TRACING_5(CommandSet.EVENT_PIPE, 0x06),
  /** 0x0207 (.NET 11): v5 plus a trailing buffer mode (drop or block). */
  COLLECT_TRACING_6(CommandSet.EVENT_PIPE, 0x07),

  /** 0x0301: {@code u32 timeout, GUID clsid, string path, u32 length, bytes clientData}. */
  ATTACH_PROFILER(CommandSet.PROFILER, 0x01),
  /** 0x0302: {@code GUID clsid, string path}; only while startup is suspended. */
  STARTUP_PROFILER(CommandSet.PROFILER, 0x02),

  /** 0x0400: pid, runtime cookie, command line, OS, architecture. */
  PROCESS_INFO(CommandSet.PROCESS, 0x00),
  /** 0x0401: lets a runtime suspended at startup continue. */
  RESUME_RUNTIME(CommandSet.PROCESS, 0x01),
  /** 0x0402: the environment block, streamed after the reply. */
  PROCESS_ENVIRONMENT(CommandSet.PROCESS, 0x02),
  /** 0x0403: {@code string name, string value}. */
  SET_ENVIRONMENT_VARIABLE(CommandSet.PROCESS, 0x03),
  /** 0x0404: ProcessInfo plus entry-point assembly and CLR product version. */
  PROCESS_INFO_2(CommandSet.PROCESS, 0x04),
  /** 0x0405: {@code u32 perfMapType}. */
  ENABLE_PERF_MAP(CommandSet.PROCESS, 0x05),
  /** 0x0406: no payload. */
  DISABLE_PERF_MAP(CommandSet.PROCESS, 0x06),
  /** 0x0407: {@code string assemblyPath}; only while startup is suspended. */
  APPLY_STARTUP_HOOK(CommandSet.PROCESS, 0x07),
  /** 0x0408: a version number, the ProcessInfo2 fields, then the runtime identifier. */
  PROCESS_INFO_3(CommandSet.PROCESS, 0x08);

  private final CommandSet set;
  private final int id;

  IpcCommand(CommandSet set, int id) {
    this.set = set;
    this.id = id;
  }

  /** The command set byte. */
  public CommandSet set() {
    return set;
  }

  /** The command id byte within its set. */
  public int id() {
    return id;
  }

  /** The command's name in the protocol documents, such as {@code ProcessInfo3}. */
  public String protocolName() {
    StringBuilder sb = new StringBuilder();
    for (String word : name().split("_", -1)) {
      sb.append(word.charAt(0)).append(word.substring(1).toLowerCase(java.util.Locale.ROOT));
    }
    return sb.toString();
  }

  /** A name for messages, such as {@code ProcessInfo3 (0x0408)}. */
  public String describe() {
    // Not String.format: every reply's read names its command, and the first Formatter of a run
    // costs several milliseconds of `clrscope ps` (a regular expression and a method handle).
    HexFormat hex = HexFormat.of().withUpperCase();
    return protocolName()
        + " (0x"
        + hex.toHexDigits((byte) set.code())
        + hex.toHexDigits((byte) id)
        + ")";
  }
}
