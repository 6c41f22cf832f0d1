package dev.clrscope.ipc.client;

import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.MalformedMessageException;
import dev.clrscope.ipc.RuntimeTooOldException;
import dev.clrscope.ipc.ServerErrorException;
import dev.clrscope.ipc.codec.IpcFrames;
import dev.clrscope.ipc.codec.PayloadReader;
import dev.clrscope.ipc.codec.PayloadWriter;
import dev.clrscope.ipc.protocol.IpcCommand;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSession;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.ipc.transport.IpcConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends diagnostic commands to one runtime: one request and one reply per connection.
 *
 * <p>Where a command has several versions, the lowest that can express the request is sent first
 * where that is all the request needs; richer versions are tried newest first and fall back on
 * {@code UNKNOWN_COMMAND}. Every reply is awaited for at most the configured timeout.
 */
public final class DiagnosticsClient {
  private static final Logger log = LoggerFactory.getLogger(DiagnosticsClient.class);

  /** The default wait for a connection and for each reply. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  /** The largest environment block accepted, against a corrupted size field. */
  private static final int MAX_ENVIRONMENT_BYTES = 64 * 1024 * 1024;

  private final ConnectionSource source;
  private final Duration timeout;

  /** The CollectTracing versions this runtime answered UNKNOWN_COMMAND to. */
  private final Set<IpcCommand> unknownCommands = ConcurrentHashMap.newKeySet();

  /** The notes already said, so each is said once. */
  private final Set<String> said = ConcurrentHashMap.newKeySet();

  private volatile Consumer<String> notices = note -> {};
  private volatile String runtimeVersion;

  /**
   * A client.
   *
   * @param source where connections come from
   * @param timeout how long to wait for a connection and for each reply
   */
  public DiagnosticsClient(ConnectionSource source, Duration timeout) {
    this.source = source;
    this.timeout = timeout;
  }

  /** Where this client's connections go. */
  public ConnectionSource source() {
    return source;
  }

  /** Sends one request on a fresh connection and returns the OK reply's payload. */
  private byte[] exchange(IpcCommand command, byte[] payload, Duration replyTimeout) {
    try (IpcConnection c = source.open(timeout)) {
      IpcFrames.writeRequest(c, command, payload);
      c.setDeadline(replyTimeout, "the reply to " + command.describe());
      return IpcFrames.readReply(c, command);
    }
  }

  private byte[] exchange(IpcCommand command, byte[] payload) {
    return exchange(command, payload, timeout);
  }

  /**
   * Asks for the process information, trying ProcessInfo3, then 2, then 1.
   *
   * @return what the newest command this runtime knows reports
   */
  public ProcessInfo processInfo() {
    for (IpcCommand command :
        List.of(IpcCommand.PROCESS_INFO_3, IpcCommand.PROCESS_INFO_2, IpcCommand.PROCESS_INFO)) {
      try {
        return decodeProcessInfo(command, exchange(command, new byte[0]));
      } catch (ServerErrorException e) {
        if (!e.isUnknownCommand() || command == IpcCommand.PROCESS_INFO) {
          throw e;
        }
        log.debug("the runtime does not know {}: trying an older version", command.protocolName());
      }
    }
    throw new IllegalStateException("unreachable");
  }

  /**
   * Decodes a ProcessInfo reply of any version.
   *
   * <pre>
   *  [v3: u32 version] u64 pid | GUID cookie | string commandLine | string os | string arch
   *  [v2+: string entrypointAssembly | string clrProductVersion] [v3, version ≥ 1: string rid]
   * </pre>
   */
  static ProcessInfo decodeProcessInfo(IpcCommand command, byte[] payload) {
    PayloadReader r = new PayloadReader(payload, 20);
    int version = 0;
    if (command == IpcCommand.PROCESS_INFO_3) {
      version = r.u32("the ProcessInfo3 version");
    }
    long pid = r.u64("the pid");
    UUID cookie = r.guid("the runtime cookie");
    String commandLine = r.string("the command line");
    String os = r.string("the OS");
    String arch = r.string("the architecture");
    String entrypoint = null;
    String clrVersion = null;
    String rid = null;
    if (command != IpcCommand.PROCESS_INFO) {
      entrypoint = r.string("the entry-point assembly");
      clrVersion = r.string("the CLR product version");
    }
    if (command == IpcCommand.PROCESS_INFO_3 && version >= 1) {
      rid = r.string("the runtime identifier");
    }
    return new ProcessInfo(
        pid, cookie, commandLine, os, arch, entrypoint, clrVersion, rid, command);
  }

  /** Lets a runtime that is suspended at startup continue. Harmless if it is running. */
  public void resumeRuntime() {
    exchange(IpcCommand.RESUME_RUNTIME, new byte[0]);
  }

  /**
   * The target's environment, as {@code NAME=VALUE} entries in the runtime's order.
   *
   * <pre>
   *  reply:  u32 continuationBytes | u16 reserved
   *  then, continuationBytes on the same connection:  u32 count | count × string "NAME=VALUE"
   * </pre>
   */
  public List<String> environment() {
    IpcCommand command = IpcCommand.PROCESS_ENVIRONMENT;
    try (IpcConnection c = source.open(timeout)) {
      IpcFrames.writeRequest(c, command, new byte[0]);
      c.setDeadline(timeout, "the reply to " + command.describe());
      PayloadReader reply = new PayloadReader(IpcFrames.readReply(c, command), 20);
      long size = Integer.toUnsignedLong(reply.u32("the environment block size"));
      if (size > MAX_ENVIRONMENT_BYTES) {
        throw new MalformedMessageException(
            20, "an environment block of " + size + " bytes is beyond any real environment");
      }
      byte[] block = new byte[(int) size];
      c.readFully(block, "the environment block");
      PayloadReader r = new PayloadReader(block);
      long count = Integer.toUnsignedLong(r.u32("the variable count"));
      // Each entry takes at least its 4-byte length, which bounds a corrupted count.
      if (count * 4 > r.remaining()) {
        throw new MalformedMessageException(
            0, "the block claims " + count + " variables but holds " + r.remaining() + " bytes");
      }
      List<String> entries = new ArrayList<>((int) count);
      for (long i = 0; i < count; i++) {
        String entry = r.string("variable " + i);
        if (entry != null) {
          entries.add(entry);
        }
      }
      log.debug("read {} environment variables ({} bytes)", entries.size(), size);
      return entries;
    }
  }

  /** Sets (or, with an empty value, blanks) a variable in the target's environment. */
  public void setEnvironmentVariable(String name, String value) {
    exchange(
        IpcCommand.SET_ENVIRONMENT_VARIABLE,
        new PayloadWriter().string(name).string(value).toByteArray());
  }

  /** Makes the runtime write perf maps and/or jitdump files for native profilers. */
  public void enablePerfMap(PerfMapType type) {
    exchange(IpcCommand.ENABLE_PERF_MAP, new PayloadWriter().u32(type.code()).toByteArray());
  }

  /** Stops writing perf maps. */
  public void disablePerfMap() {
    exchange(IpcCommand.DISABLE_PERF_MAP, new byte[0]);
  }

  /**
   * Has the runtime run a startup hook assembly.
   *
   * <p>A running .NET 10 runtime does not refuse this: it loads and calls the hook at once, and a
   * hook that fails to load ends the app with an unhandled ArgumentException. So the assembly must
   * be a file clrscope can see before anything is sent.
   */
  public void applyStartupHook(String assemblyPath) {
    if (assemblyPath == null || !Files.isRegularFile(Path.of(assemblyPath))) {
      throw new DiagnosticsException(
          "refusing to send ApplyStartupHook: "
              + assemblyPath
              + " is not a file; the runtime would try to load it at once, and a startup hook"
              + " that fails to load ends the target process");
    }
    exchange(IpcCommand.APPLY_STARTUP_HOOK, new PayloadWriter().string(assemblyPath).toByteArray());
  }

  /**
   * Attaches a profiler to the running target.
   *
   * @param attachTimeout how long the runtime waits for the profiler to initialise; sent in
   *     seconds, as the reference client does, although the spec says milliseconds
   */
  public void attachProfiler(
      Duration attachTimeout, UUID clsid, String profilerPath, byte[] clientData) {
    byte[] payload =
        new PayloadWriter()
            .u32((int) Math.max(1, attachTimeout.toSeconds()))
            .guid(clsid)
            .string(profilerPath)
            .u32(clientData.length)
            .bytes(clientData)
            .toByteArray();
    exchange(IpcCommand.ATTACH_PROFILER, payload, timeout.plus(attachTimeout));
  }

  /**
   * Sets a profiler to load when the runtime resumes. Meaningful only while suspended at startup; a
   * running .NET 10 runtime acknowledges it and does nothing.
   */
  public void setStartupProfiler(UUID clsid, String profilerPath) {
    exchange(
        IpcCommand.STARTUP_PROFILER,
        new PayloadWriter().guid(clsid).string(profilerPath).toByteArray());
  }

  /**
   * Has the runtime write a core dump, trying GenerateCoreDump3, 2, then 1.
   *
   * @param dumpTimeout how long to wait for the dump to be written
   */
  public void writeDump(DumpRequest request, Duration dumpTimeout) {
    List<IpcCommand> versions =
        List.of(
            IpcCommand.GENERATE_CORE_DUMP_3,
            IpcCommand.GENERATE_CORE_DUMP_2,
            IpcCommand.GENERATE_CORE_DUMP);
    for (IpcCommand command : versions) {
      if (command == IpcCommand.GENERATE_CORE_DUMP && !request.fitsVersion1()) {
        throw new DiagnosticsException(
            runtimeName()
                + " cannot write a crash report or log verbosely while dumping (that needs"
                + " GenerateCoreDump2, .NET 6 or later)");
      }
      PayloadWriter w = new PayloadWriter().string(request.path()).u32(request.type().code());
      w.u32(
          command == IpcCommand.GENERATE_CORE_DUMP
              ? (request.diagnostics() ? 1 : 0)
              : request.flags());
      try {
        exchange(command, w.toByteArray(), dumpTimeout);
        return;
      } catch (ServerErrorException e) {
        if (!e.isUnknownCommand() || command == IpcCommand.GENERATE_CORE_DUMP) {
          throw e;
        }
        log.debug("the runtime does not know {}: trying an older version", command.protocolName());
      }
    }
  }

  /**
   * Where notes about a session go that this runtime could not give exactly as asked (one line
   * each, said once per client): {@code .NET 8.0.31 cannot turn event stacks off (CollectTracing3,
   * .NET 9): ...}. By default they are logged at debug level only.
   */
  public DiagnosticsClient noticesTo(Consumer<String> sink) {
    this.notices = sink;
    return this;
  }

  /**
   * The runtime as a message names it: {@code .NET 8.0.31} from its ProcessInfo2/3 (asked once), or
   * {@code this runtime} when it cannot say.
   */
  public String runtimeName() {
    String version = runtimeVersion();
    return version.isEmpty() ? "this runtime" : ".NET " + version;
  }

  /**
   * The runtime's major version ({@code 8} of {@code 8.0.31}), from its ProcessInfo2/3 (asked
   * once); 0 when it does not say (ProcessInfo2 came with .NET 5).
   */
  public int runtimeMajorVersion() {
    String version = runtimeVersion();
    int dot = version.indexOf('.');
    try {
      return dot > 0 ? Integer.parseInt(version.substring(0, dot)) : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** The runtime's version as it gives it, without a build suffix; "" when unknown. */
  private String runtimeVersion() {
    String version = runtimeVersion;
    if (version == null) {
      try {
        String given = processInfo().clrProductVersion();
        version = given == null || given.isBlank() ? "" : cleanVersion(given);
      } catch (DiagnosticsException e) {
        log.debug("the runtime's version is unknown: {}", e.getMessage());
        version = "";
      }
      runtimeVersion = version;
    }
    return version;
  }

  /** {@code 8.0.31} of {@code 8.0.31+a1b2c3} (a commit) or {@code 10.0.0-rc.1.2345} as it is. */
  private static String cleanVersion(String version) {
    int plus = version.indexOf('+');
    return plus > 0 ? version.substring(0, plus) : version;
  }

  /**
   * Starts an EventPipe session with the lowest CollectTracing version that expresses the
   * configuration. A runtime that answers {@code UNKNOWN_COMMAND} is asked again with what the
   * version before can express, giving up only what it cannot (turning stacks off, choosing the
   * rundown's keywords, event-id filters), as the reference tools' fallback does; each thing given
   * up is said once through {@link #noticesTo}. What is learnt holds for this client's later
   * sessions, so they go straight to a version the runtime knows.
   *
   * @throws RuntimeTooOldException when the runtime knows no version that can do without what it
   *     lacks (lossless buffering, which only CollectTracing6 expresses)
   */
  public EventPipeSession startEventPipeSession(EventPipeSessionConfig config) {
    EventPipeSessionConfig current = config;
    while (true) {
      IpcCommand command = CollectTracingEncoder.versionFor(current);
      if (unknownCommands.contains(command)) {
        current = fallBack(command, current, null);
        continue;
      }
      if (log.isDebugEnabled()) {
        log.debug(
            "starting an EventPipe session with {} ({} MB buffer, rundown keywords 0x{}, stacks {},"
                + " lossless {}) with providers {}",
            command.protocolName(),
            current.bufferSizeMb(),
            Long.toHexString(current.rundownKeyword()).toUpperCase(Locale.ROOT),
            current.requestStackwalk(),
            current.lossless(),
            current.providers().stream()
                .map(
                    p ->
                        p.name()
                            + ":0x"
                            + Long.toHexString(p.keywords()).toUpperCase(Locale.ROOT)
                            + ":"
                            + p.level()
                            + (p.arguments().isEmpty() ? "" : ":" + p.filterData())
                            + (p.eventIds().isEmpty() ? "" : " (event ids " + p.eventIds() + ")"))
                .collect(Collectors.joining(", ")));
      }
      IpcConnection c = source.open(timeout);
      boolean handedOver = false;
      try {
        IpcFrames.writeRequest(c, command, CollectTracingEncoder.encode(command, current));
        c.setDeadline(timeout, "the reply to " + command.describe());
        PayloadReader r = new PayloadReader(IpcFrames.readReply(c, command), 20);
        long sessionId = r.u64("the session id");
        c.clearDeadline();
        log.debug("EventPipe session {} started on {}", sessionId, c.description());
        handedOver = true;
        return new EventPipeSession(c, sessionId, this::stopTracing);
      } catch (ServerErrorException e) {
        if (!e.isUnknownCommand()) {
          throw e;
        }
        log.debug("the runtime does not know {}", command.protocolName());
        unknownCommands.add(command);
        current = fallBack(command, current, e);
      } finally {
        if (!handedOver) {
          c.close();
        }
      }
    }
  }

  /** What to ask a runtime that does not know {@code unknown} instead, said once. */
  private EventPipeSessionConfig fallBack(
      IpcCommand unknown, EventPipeSessionConfig config, ServerErrorException answer) {
    CollectTracingEncoder.Fallback fallback = CollectTracingEncoder.fallback(unknown, config);
    if (fallback == null) {
      String message = runtimeName() + " " + CollectTracingEncoder.whyNeeded(unknown);
      throw new RuntimeTooOldException(
          answer == null ? message : message + ": " + answer.getMessage(), answer);
    }
    String note = runtimeName() + " " + fallback.givesUp();
    if (said.add(note)) {
      log.debug("{}", note);
      notices.accept(note);
    }
    return fallback.config();
  }

  /** Ends an EventPipe session; the runtime then finishes its stream with the rundown. */
  public void stopTracing(long sessionId) {
    log.debug("stopping EventPipe session {}", sessionId);
    exchange(IpcCommand.STOP_TRACING, new PayloadWriter().u64(sessionId).toByteArray());
  }

  /** The providers' wire form, shared by every CollectTracing version. */
  static void writeProvider(PayloadWriter w, EventPipeProvider p) {
    w.u64(p.keywords()).u32(p.level()).string(p.name()).string(p.filterData());
  }
}
