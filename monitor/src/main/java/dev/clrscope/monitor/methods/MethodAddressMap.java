package dev.clrscope.monitor.methods;

import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.client.DiagnosticsClient;
import dev.clrscope.ipc.session.EventLevel;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.monitor.RuntimeKeyword;
import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.monitor.session.SessionRequest;
import dev.clrscope.monitor.session.SessionRunner;
import dev.clrscope.monitor.session.StopSwitch;
import dev.clrscope.nettrace.StackTrace;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.symbols.Frame;
import dev.clrscope.symbols.FrameResolver;
import dev.clrscope.symbols.ManagedCodeMap;
import dev.clrscope.symbols.ProcessMaps;
import dev.clrscope.symbols.SourceLines;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The method names of a live session's stacks: an {@link EventConsumer} that feeds the method load
 * and rundown events to the symbols module's {@link ManagedCodeMap} (where the ranges and the
 * naming live) and names frames from it. A name is {@code Namespace.Method}, as TraceEvent prints
 * it (the namespace being the full type name); an address no method covers stays a hex address.
 *
 * <p>Fed live (it is an {@link EventConsumer}), it names what the session has seen so far: methods
 * compiled while it ran, and, once the rundown at the end has arrived, every method with code. The
 * methods that had code when a live session started (compiled before it, or ahead of time in the
 * framework's ReadyToRun images and already run) are named from the start when the session runs
 * {@link #namesFirst} before it is read: a short session of its own whose rundown, sent as it
 * stops, lists them, as dotnet-monitor gets them. Not thread-safe: feed and read it from one thread
 * at a time (the rundown session's reader, then the session's), or once the session is over.
 */
public final class MethodAddressMap implements EventConsumer {
  private static final Logger log = LoggerFactory.getLogger(MethodAddressMap.class);

  /**
   * A live session of runtime events whose stacks are to be named: the runtime provider with {@code
   * keywords} and Jit (for the methods compiled while it runs) at Verbose (the runtime sends
   * MethodLoadVerbose, the events with names, only at Verbose), stacks on; with the classic rundown
   * at the end when {@code rundown}, so methods compiled before are named too.
   *
   * <p>Live ordering, not global: the analyses that use it pair events of one thread only (a throw
   * and its catch, a wait's start and stop), which live ordering keeps in order, while global
   * ordering would hold the last events back until another thread's event (or the end) proves
   * nothing older is to come: a quiet process's last rows would not print until it stopped.
   *
   * @param keywords the runtime keywords of the events analysed
   * @param readerName the name of the session's reader thread
   */
  public static SessionRequest namedStacksSession(
      long keywords, boolean rundown, String readerName) {
    return namedStacksSession(keywords, rundown, false, readerName);
  }

  /**
   * {@link #namedStacksSession(long, boolean, String)}, and when {@code lines}, the keywords source
   * lines take: the IL-to-native map of each method compiled while it runs
   * (JittedMethodILToNativeMap) and each module loaded (Loader: its path and PDB id).
   */
  public static SessionRequest namedStacksSession(
      long keywords, boolean rundown, boolean lines, String readerName) {
    if (lines) {
      keywords |=
          RuntimeKeyword.maskOf(
              RuntimeKeyword.JITTED_METHOD_IL_TO_NATIVE_MAP, RuntimeKeyword.LOADER);
    }
    return SessionRequest.of(
            new EventPipeSessionConfig(
                16,
                List.of(
                    new EventPipeProvider(
                        RuntimeEvents.RUNTIME_PROVIDER,
                        keywords | RuntimeKeyword.JIT.mask(),
                        EventLevel.VERBOSE.value(),
                        Map.of(),
                        List.of())),
                rundown ? EventPipeSessionConfig.DEFAULT_RUNDOWN_KEYWORD : 0,
                true,
                false),
            readerName)
        .withOrdering(SessionRequest.Ordering.LIVE);
  }

  /**
   * What a live session runs before its stream is read ({@link SessionRequest#withBeforeReading}):
   * a session of its own with no events but the rundown the runtime sends as it stops, whose method
   * events are fed to this map, so that code compiled before the session is named from its first
   * row. The session's own events wait in the runtime's buffer meanwhile: none is lost, and no
   * method compiled in between goes unnamed (its MethodLoad comes in the session).
   */
  public SessionRequest.BeforeReading namesFirst(DiagnosticsClient client) {
    return () -> {
      StopSwitch stop = new StopSwitch();
      stop.request("the rundown names the methods compiled so far");
      SessionRequest rundown =
          SessionRequest.of(
              new EventPipeSessionConfig(
                  RUNDOWN_BUFFER_MB,
                  // Something must be enabled: the runtime's critical events without keywords,
                  // which a healthy process does not send.
                  List.of(
                      new EventPipeProvider(
                          RuntimeEvents.RUNTIME_PROVIDER,
                          0,
                          EventLevel.CRITICAL.value(),
                          Map.of(),
                          List.of())),
                  EventPipeSessionConfig.DEFAULT_RUNDOWN_KEYWORD,
                  false,
                  false),
              "clrscope-method-rundown");
      try (SessionRunner session = SessionRunner.start(client, rundown, stop, this)) {
        session.finish();
      } catch (DiagnosticsException e) {
        // A runtime that refuses a second session (or went away) costs the early names only:
        // the session's own rundown names everything at its end, as before.
        log.debug("the first rundown failed: {}", e.getMessage());
      }
    };
  }

  /** The rundown of a process of 100,000 methods is some 25 MB: room for it. */
  private static final int RUNDOWN_BUFFER_MB = 64;

  private final ManagedCodeMap code = new ManagedCodeMap();

  /** Names what no method covers: the target's native modules, when known. */
  private final FrameResolver frames;

  /** Managed names only: what no method covers prints as {@code 0x...}. */
  public MethodAddressMap() {
    this(ProcessMaps.empty());
  }

  /**
   * Managed names, and for what no method covers the module of the target mapped there ({@code
   * libcoreclr.so!symbol}, {@code System.Private.CoreLib.dll!0x...}; see {@link FrameResolver}).
   */
  public MethodAddressMap(ProcessMaps maps) {
    this.frames = new FrameResolver(code, null, maps, false);
  }

  /**
   * Frames carry source lines from now on, their PDBs found through {@code lines} (feed the events
   * after this call).
   */
  public MethodAddressMap withLines(SourceLines lines) {
    if (lines != null) {
      code.withLines(lines);
    }
    return this;
  }

  /** Takes the method range from {@code e} if it is a method load or rundown event. */
  @Override
  public void accept(TraceEvent e) {
    code.accept(e);
  }

  /** The code map this feeds (the symbols module's, the one place methods are named). */
  public ManagedCodeMap codeMap() {
    return code;
  }

  /** The method containing {@code ip}, or {@code null} when no known method does. */
  public String nameOrNull(long ip) {
    return code.nameOrNull(ip);
  }

  /**
   * The frame name of {@code ip}: its method, else its module ({@code module!0x...}), else {@code
   * 0x...}. Not cached: live, the map grows as methods arrive.
   */
  public String name(long ip) {
    return frames.resolve(ip);
  }

  /**
   * The frame at {@code ip}: its name ({@link #name(long)}) and, with lines, its line (for a return
   * address, the call's). Not cached.
   */
  public Frame frame(long ip, boolean returnAddress) {
    return frames.resolveFrame(ip, returnAddress);
  }

  /**
   * A stack's frames, innermost first ({@link #frame} each; all but the first return addresses).
   */
  public List<Frame> frames(StackTrace stack) {
    List<Frame> frames = new ArrayList<>(stack.depth());
    for (int i = 0; i < stack.depth(); i++) {
      frames.add(frame(stack.frame(i), i > 0));
    }
    return frames;
  }

  /**
   * What kept frames from their module's names or lines (a damaged library, a PDB refused, damaged
   * or Windows), one line each, for the caller to warn about once the session is over.
   */
  public List<String> problems() {
    return frames.problems();
  }

  /**
   * The frame that stands for a stack in a one-line view: the first frame, innermost first, whose
   * method is named and lies outside {@code runtimeNamespaces} (the runtime's own lock, wait or
   * exception-dispatch code, which sits above the caller that matters). Unnamed frames are passed
   * over while a named one may still follow: live, they are mostly the framework's precompiled code
   * that only the rundown at the end names. If no frame qualifies, the first unnamed frame's
   * address, or if every frame is the runtime's, the innermost; {@code null} for an empty stack.
   *
   * <p>The frame carries its line when lines are kept.
   *
   * @param runtimeNamespaces prefixes of method names to pass over, such as {@code
   *     "System.Threading."}
   */
  public Frame firstFrameOutside(StackTrace stack, List<String> runtimeNamespaces) {
    Frame firstUnnamed = null;
    for (int i = 0; i < stack.depth(); i++) {
      long ip = stack.frame(i);
      String name = nameOrNull(ip);
      if (name == null) {
        if (firstUnnamed == null) {
          firstUnnamed = frame(ip, i > 0);
        }
        continue;
      }
      if (runtimeNamespaces.stream().noneMatch(name::startsWith)) {
        return frame(ip, i > 0);
      }
    }
    if (firstUnnamed == null && stack.depth() > 0) {
      // Every frame is the runtime's own: the innermost says most.
      return frame(stack.frame(0), false);
    }
    return firstUnnamed;
  }

  /**
   * The first frame of {@code stack} (innermost first) that is named and outside {@code namespaces}
   * (the runtime's and the framework's): where the user's code is; {@code null} when no named frame
   * is.
   */
  public Frame firstNamedFrameOutside(StackTrace stack, List<String> namespaces) {
    for (int i = 0; i < stack.depth(); i++) {
      long ip = stack.frame(i);
      String name = nameOrNull(ip);
      if (name != null && namespaces.stream().noneMatch(name::startsWith)) {
        return frame(ip, i > 0);
      }
    }
    return null;
  }

  /** How an unnamed frame prints: {@code 0x} and the address in lower-case hex. */
  public static String hex(long ip) {
    return FrameResolver.hex(ip);
  }

  /** Number of known methods. */
  public int size() {
    return code.size();
  }
}
