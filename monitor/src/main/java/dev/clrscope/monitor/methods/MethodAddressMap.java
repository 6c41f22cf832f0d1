package dev.clrscope.monitor.methods;

import dev.clrscope.ipc.session.EventLevel;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.monitor.RuntimeKeyword;
import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.monitor.session.SessionRequest;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.StackTrace;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimePayload;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Instruction pointers to managed method names, from the method load events of a trace
 * (MethodLoadVerbose while it ran, MethodDCStart/StopVerbose in the rundown): each gives a method's
 * code start address and size. A name is {@code Namespace.Method}, as TraceEvent prints it (the
 * namespace being the full type name); an address no method covers stays a hex address.
 *
 * <p>Fed live (it is an {@link EventConsumer}), it names what the session has seen so far: methods
 * compiled while it ran, and, once the rundown at the end has arrived, every method with code. Code
 * compiled ahead of time (the framework's ReadyToRun images) and methods compiled before the
 * session started have no name until that rundown. Not thread-safe: feed and read it from the
 * session's reader thread, or read it once the session is over.
 */
public final class MethodAddressMap implements EventConsumer {
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

  /** The event ids of MethodLoadVerbose/UnloadVerbose, and in the rundown DCStart/DCStopVerbose. */
  private static final int LOAD_VERBOSE = 143;

  private static final int UNLOAD_VERBOSE = 144;

  /** A method's code range. */
  private record Range(long start, long size, String name) {}

  private final TreeMap<Long, Range> byStart = new TreeMap<>(Long::compareUnsigned);

  /** Reads every method event of a trace (leniently: a truncated trace gives what it has). */
  public static MethodAddressMap read(Path trace) {
    MethodAddressMap map = new MethodAddressMap();
    try (NetTraceReader r = NetTraceReader.open(trace, true)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        map.accept(e);
      }
    }
    return map;
  }

  /** Takes the method range from {@code e} if it is a method load or rundown event. */
  @Override
  public void accept(TraceEvent e) {
    int id = e.eventId();
    if (id != LOAD_VERBOSE && id != UNLOAD_VERBOSE) {
      return;
    }
    String provider = e.providerName();
    if (!RuntimeEvents.RUNTIME_PROVIDER.equals(provider)
        && !RuntimeEvents.RUNDOWN_PROVIDER.equals(provider)) {
      return;
    }
    Optional<RuntimePayload> decoded;
    try {
      decoded = RuntimeEvents.decode(e);
    } catch (RuntimeException ex) {
      // One malformed payload loses one name, not the analysis.
      return;
    }
    if (decoded.isPresent() && decoded.get() instanceof RuntimePayload.MethodLoadVerbose m) {
      if (m.methodStartAddress() == 0 || m.methodSize() <= 0) {
        return;
      }
      String ns = m.methodNamespace() == null ? "" : m.methodNamespace();
      String name = ns.isEmpty() ? m.methodName() : ns + "." + m.methodName();
      byStart.put(m.methodStartAddress(), new Range(m.methodStartAddress(), m.methodSize(), name));
    }
  }

  /** The method containing {@code ip}, or {@code null} when no known method does. */
  public String nameOrNull(long ip) {
    Map.Entry<Long, Range> e = byStart.floorEntry(ip);
    if (e != null) {
      Range r = e.getValue();
      if (Long.compareUnsigned(ip - r.start(), r.size()) < 0) {
        return r.name();
      }
    }
    return null;
  }

  /** The method containing {@code ip}, or {@code 0x...} when no known method does. */
  public String name(long ip) {
    String name = nameOrNull(ip);
    return name != null ? name : hex(ip);
  }

  /** The names of a stack's frames, innermost first ({@link #name(long)} each). */
  public List<String> names(StackTrace stack) {
    List<String> names = new ArrayList<>(stack.depth());
    for (int i = 0; i < stack.depth(); i++) {
      names.add(name(stack.frame(i)));
    }
    return names;
  }

  /**
   * The frame that stands for a stack in a one-line view: the first frame, innermost first, whose
   * method is named and lies outside {@code runtimeNamespaces} (the runtime's own lock, wait or
   * exception-dispatch code, which sits above the caller that matters). Unnamed frames are passed
   * over while a named one may still follow: live, they are mostly the framework's precompiled code
   * that only the rundown at the end names. If no frame qualifies, the first unnamed frame's
   * address, or if every frame is the runtime's, the innermost; {@code null} for an empty stack.
   *
   * @param runtimeNamespaces prefixes of method names to pass over, such as {@code
   *     "System.Threading."}
   */
  public String firstFrameOutside(StackTrace stack, List<String> runtimeNamespaces) {
    String firstUnnamed = null;
    for (int i = 0; i < stack.depth(); i++) {
      long ip = stack.frame(i);
      String name = nameOrNull(ip);
      if (name == null) {
        if (firstUnnamed == null) {
          firstUnnamed = hex(ip);
        }
        continue;
      }
      if (runtimeNamespaces.stream().noneMatch(name::startsWith)) {
        return name;
      }
    }
    if (firstUnnamed == null && stack.depth() > 0) {
      // Every frame is the runtime's own: the innermost says most.
      return name(stack.frame(0));
    }
    return firstUnnamed;
  }

  /** How an unnamed frame prints: {@code 0x} and the address in lower-case hex. */
  public static String hex(long ip) {
    return "0x" + Long.toHexString(ip);
  }

  /** Number of known methods. */
  public int size() {
    return byStart.size();
  }
}
