package dev.clrscope.ipc.client;

import dev.clrscope.ipc.codec.PayloadWriter;
import dev.clrscope.ipc.protocol.IpcCommand;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import java.util.List;

/**
 * Chooses the CollectTracing version for a session and writes its payload.
 *
 * <pre>
 *  v1  u32 bufferMB | u32 format | providers
 *  v2  u32 bufferMB | u32 format | bool rundown | providers
 *  v3  u32 bufferMB | u32 format | bool rundown | bool stackwalk | providers
 *  v4  u32 bufferMB | u32 format | u64 rundownKeyword | bool stackwalk | providers
 *  v5  u32 sessionType=0 | v4 fields | providers, each followed by its event filter
 *  v6  v5 | u32 bufferMode (0 drop, 1 block)
 *  provider: u64 keywords | u32 level | string name | string filterData
 *  event filter (v5+): bool enable | u32 count | count × u32 eventId
 * </pre>
 */
final class CollectTracingEncoder {
  /** The nettrace serialization format; 0 would be the retired netperf format. */
  private static final int FORMAT_NETTRACE = 1;

  private CollectTracingEncoder() {}

  /**
   * The versions to try, in order: the lowest version that expresses the configuration. Older
   * versions cannot express it, so there is nothing to fall back on.
   */
  static List<IpcCommand> versionsFor(EventPipeSessionConfig config) {
    if (config.lossless()) {
      return List.of(IpcCommand.COLLECT_TRACING_6);
    }
    if (config.hasEventFilter()) {
      return List.of(IpcCommand.COLLECT_TRACING_5);
    }
    long rundown = config.rundownKeyword();
    boolean classicRundown =
        rundown == 0 || rundown == EventPipeSessionConfig.DEFAULT_RUNDOWN_KEYWORD;
    if (!classicRundown) {
      return List.of(IpcCommand.COLLECT_TRACING_4);
    }
    if (!config.requestStackwalk()) {
      return List.of(IpcCommand.COLLECT_TRACING_3);
    }
    if (rundown == 0) {
      return List.of(IpcCommand.COLLECT_TRACING_2);
    }
    return List.of(IpcCommand.COLLECT_TRACING);
  }

  /** Why the newest version needed is needed, for the "runtime too old" message. */
  static String whyNewest(EventPipeSessionConfig config) {
    IpcCommand v = versionsFor(config).get(0);
    switch (v) {
      case COLLECT_TRACING_6:
        return "lossless (blocking) buffering needs CollectTracing6, .NET 11 or later";
      case COLLECT_TRACING_5:
        return "per-provider event-id filters need CollectTracing5, .NET 10 or later";
      case COLLECT_TRACING_4:
        return "a custom rundown keyword needs CollectTracing4, .NET 8 or later";
      case COLLECT_TRACING_3:
        return "turning stacks off needs CollectTracing3, .NET 6 or later";
      default:
        return "turning rundown off needs CollectTracing2, .NET 5 or later";
    }
  }

  static byte[] encode(IpcCommand version, EventPipeSessionConfig config) {
    PayloadWriter w = new PayloadWriter();
    boolean v5plus =
        version == IpcCommand.COLLECT_TRACING_5 || version == IpcCommand.COLLECT_TRACING_6;
    if (v5plus) {
      w.u32(0); // session type: streaming over this connection
    }
    w.u32(config.bufferSizeMb()).u32(FORMAT_NETTRACE);
    boolean rundownOn = config.rundownKeyword() != 0;
    switch (version) {
      case COLLECT_TRACING:
        break;
      case COLLECT_TRACING_2:
        w.bool(rundownOn);
        break;
      case COLLECT_TRACING_3:
        w.bool(rundownOn).bool(config.requestStackwalk());
        break;
      default:
        w.u64(config.rundownKeyword()).bool(config.requestStackwalk());
        break;
    }
    w.u32(config.providers().size());
    for (EventPipeProvider p : config.providers()) {
      DiagnosticsClient.writeProvider(w, p);
      if (v5plus) {
        boolean filtered = !p.eventIds().isEmpty();
        w.bool(filtered).u32(p.eventIds().size());
        for (int id : p.eventIds()) {
          w.u32(id);
        }
      }
    }
    if (version == IpcCommand.COLLECT_TRACING_6) {
      w.u32(config.lossless() ? 1 : 0);
    }
    return w.toByteArray();
  }
}
