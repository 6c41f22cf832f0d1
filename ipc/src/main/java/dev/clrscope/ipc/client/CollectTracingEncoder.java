package dev.clrscope.ipc.client;

import dev.clrscope.ipc.codec.PayloadWriter;
import dev.clrscope.ipc.protocol.IpcCommand;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import java.util.List;
import java.util.Locale;

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
   * The lowest version that expresses the configuration exactly: v6 for lossless buffering, v5 for
   * event-id filters, v4 for a chosen rundown keyword, v3 for stacks off, v2 for no rundown, else
   * v1 (the classic rundown with stacks).
   */
  static IpcCommand versionFor(EventPipeSessionConfig config) {
    if (config.lossless()) {
      return IpcCommand.COLLECT_TRACING_6;
    }
    if (config.hasEventFilter()) {
      return IpcCommand.COLLECT_TRACING_5;
    }
    long rundown = config.rundownKeyword();
    if (rundown != 0 && rundown != EventPipeSessionConfig.DEFAULT_RUNDOWN_KEYWORD) {
      return IpcCommand.COLLECT_TRACING_4;
    }
    if (!config.requestStackwalk()) {
      return IpcCommand.COLLECT_TRACING_3;
    }
    return rundown == 0 ? IpcCommand.COLLECT_TRACING_2 : IpcCommand.COLLECT_TRACING;
  }

  /**
   * The .NET release that brought each version (checked on 8.0.31: v1 and v2 only; 9.0.20: v1 to
   * v4; 10.0.12: v1 to v5), for messages.
   */
  static String since(IpcCommand version) {
    return switch (version) {
      case COLLECT_TRACING -> ".NET Core 3.0";
      case COLLECT_TRACING_2 -> ".NET 5";
      case COLLECT_TRACING_3, COLLECT_TRACING_4 -> ".NET 9";
      case COLLECT_TRACING_5 -> ".NET 10";
      case COLLECT_TRACING_6 -> ".NET 11";
      default -> throw new IllegalArgumentException(version + " is no CollectTracing version");
    };
  }

  /**
   * What a runtime that does not know {@code unknown} ({@link #versionFor} of {@code config}) can
   * be asked instead, and what that gives up; null where nothing can stand in (lossless buffering,
   * which the user asked for, and v1, which every runtime with a diagnostic server knows).
   *
   * @param config a configuration whose {@link #versionFor} is {@code unknown}
   */
  static Fallback fallback(IpcCommand unknown, EventPipeSessionConfig config) {
    String lacks = "cannot ";
    String needs = " (" + unknown.protocolName() + ", " + since(unknown) + ")";
    switch (unknown) {
      case COLLECT_TRACING_5:
        return new Fallback(
            new EventPipeSessionConfig(
                config.bufferSizeMb(),
                config.providers().stream()
                    .map(
                        p ->
                            new EventPipeProvider(
                                p.name(), p.keywords(), p.level(), p.arguments(), List.of()))
                    .toList(),
                config.rundownKeyword(),
                config.requestStackwalk(),
                false),
            lacks
                + "filter a provider's events by id"
                + needs
                + ": the providers send all the events of their keywords");
      case COLLECT_TRACING_4:
        long wanted = config.rundownKeyword();
        long classic = EventPipeSessionConfig.DEFAULT_RUNDOWN_KEYWORD;
        long missing = wanted & ~classic;
        return new Fallback(
            new EventPipeSessionConfig(
                config.bufferSizeMb(),
                config.providers(),
                classic,
                config.requestStackwalk(),
                false),
            lacks
                + "choose the rundown's keywords"
                + needs
                + ": the session ends with the classic rundown (0x"
                + Long.toHexString(classic).toUpperCase(Locale.ROOT)
                + ") instead of 0x"
                + Long.toHexString(wanted).toUpperCase(Locale.ROOT)
                + (missing == 0
                    ? ""
                    : ", without 0x" + Long.toHexString(missing).toUpperCase(Locale.ROOT)));
      case COLLECT_TRACING_3:
        return new Fallback(
            new EventPipeSessionConfig(
                config.bufferSizeMb(), config.providers(), config.rundownKeyword(), true, false),
            lacks
                + "turn event stacks off"
                + needs
                + ": its events carry their stacks, a little more work for it");
      case COLLECT_TRACING_2:
        return new Fallback(
            new EventPipeSessionConfig(
                config.bufferSizeMb(),
                config.providers(),
                EventPipeSessionConfig.DEFAULT_RUNDOWN_KEYWORD,
                config.requestStackwalk(),
                false),
            lacks + "turn the rundown off" + needs + ": the session ends with the classic rundown");
      default:
        return null;
    }
  }

  /**
   * A configuration an older version expresses, and what it gives up, for a message: {@code cannot
   * turn event stacks off (CollectTracing3, .NET 9): ...}.
   */
  record Fallback(EventPipeSessionConfig config, String givesUp) {}

  /** Why a version that cannot be done without is needed, for a message. */
  static String whyNeeded(IpcCommand version) {
    return switch (version) {
      case COLLECT_TRACING_6 ->
          "cannot block its threads rather than drop events when its buffer is full (that needs"
              + " CollectTracing6, .NET 11 or later)";
      default ->
          "knows no CollectTracing command ("
              + version.protocolName()
              + " needs "
              + since(version)
              + " or later)";
    };
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
