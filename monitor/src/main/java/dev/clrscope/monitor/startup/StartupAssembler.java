package dev.clrscope.monitor.startup;

import dev.clrscope.ipc.launch.LaunchClock;
import dev.clrscope.ipc.session.EventLevel;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.monitor.RuntimeKeyword;
import dev.clrscope.monitor.gc.GcReason;
import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.monitor.session.SessionRequest;
import dev.clrscope.nettrace.DecodedPayload;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.EventFields;
import dev.clrscope.nettrace.events.RuntimeEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Turns the runtime's loader, JIT, type-load and GC events of a process's start into {@link
 * StartupRecord}s and a {@link StartupSummary}.
 *
 * <p>What .NET 10 sends: AssemblyLoadStart/Stop (keyword AssemblyLoader: the name asked for, and in
 * the stop the result's name and path, whether it succeeded, whether the binder had it cached);
 * MethodJittingStarted and then MethodLoadVerbose for each method compiled (keyword Jit, Verbose:
 * namespace, name, signature); TypeLoadStart/Stop (keyword TypeDiagnostic, .NET 5+: an id, and in
 * the stop the type's name and the level it was loaded to), nested when loading one type loads
 * others; GCStart/GCEnd (keyword GC). Each start is paired with its stop on its thread.
 *
 * <p>{@code Main}: the runtime sends no event for "the entry point is called". The first method
 * compiled named {@code Main} (or {@code <Main>$}, the method of top-level statements) outside the
 * {@code System.} and {@code Microsoft.} namespaces is taken for it: its MethodJittingStarted is
 * the moment the runtime is about to call it (it is compiled on its first call). An app compiled
 * ReadyToRun or Native AOT does not compile its Main, and then none is reported.
 *
 * <p>Not thread-safe: feed it from one thread.
 */
public final class StartupAssembler implements EventConsumer {
  private static final int GC_START = RuntimeEvent.Runtime.GC_START;
  private static final int GC_END = RuntimeEvent.Runtime.GC_END;
  private static final int TYPE_LOAD_START = RuntimeEvent.Runtime.TYPE_LOAD_START;
  private static final int TYPE_LOAD_STOP = RuntimeEvent.Runtime.TYPE_LOAD_STOP;
  private static final int METHOD_LOAD_VERBOSE = RuntimeEvent.Runtime.METHOD_LOAD_VERBOSE;
  private static final int JITTING_STARTED = RuntimeEvent.Runtime.METHOD_JITTING_STARTED;
  private static final int ASSEMBLY_LOAD_START = RuntimeEvent.Runtime.ASSEMBLY_LOAD_START;
  private static final int ASSEMBLY_LOAD_STOP = RuntimeEvent.Runtime.ASSEMBLY_LOAD_STOP;

  /** Starts left open beyond which the oldest are dropped (a stop that never came). */
  private static final int MAX_OPEN = 10_000;

  private final boolean everyRow;
  private final Consumer<StartupRecord> sink;
  private final Map<String, StartupSummary.Tally> tallies = new HashMap<>();
  private final Map<Long, Deque<Open>> assemblies = new HashMap<>();
  private final Map<Long, Deque<Open>> jits = new HashMap<>();
  private final Map<Long, Open> types = new HashMap<>();
  private final Map<Long, Integer> typeDepth = new HashMap<>();
  private final Map<Long, Open> gcs = new HashMap<>();
  private final int top;
  private Long mainOffset;

  /** When Main was reached, on the runtime's clock ({@link TraceEvent#clockNanos}). */
  private Long mainClockNanos;

  private String mainMethod;

  /** A start waiting for its stop. */
  private record Open(
      Instant time, long offsetNanos, long threadId, long id, String name, String detail) {}

  /**
   * The live session that feeds an assembler: the runtime's AssemblyLoader, Loader, Jit,
   * TypeDiagnostic and GC keywords at Verbose (MethodJittingStarted and the type-load events are
   * Verbose); no stacks, no rundown; global ordering, so rows come in time order.
   */
  public static SessionRequest sessionRequest() {
    long keywords =
        RuntimeKeyword.maskOf(
            RuntimeKeyword.ASSEMBLY_LOADER,
            RuntimeKeyword.LOADER,
            RuntimeKeyword.JIT,
            RuntimeKeyword.TYPE_DIAGNOSTIC,
            RuntimeKeyword.GC);
    return SessionRequest.of(
        new EventPipeSessionConfig(
            64,
            List.of(
                new EventPipeProvider(
                    RuntimeEvents.RUNTIME_PROVIDER,
                    keywords,
                    EventLevel.VERBOSE.value(),
                    Map.of(),
                    List.of())),
            0,
            false,
            false),
        "clrscope-startup-reader");
  }

  /**
   * An assembler.
   *
   * @param everyRow hand out every method compiled and type loaded too; else only assembly loads,
   *     GCs and Main (the summary counts everything either way)
   * @param top how many of the slowest items of each kind the summary keeps
   * @param sink takes each record
   */
  public StartupAssembler(boolean everyRow, int top, Consumer<StartupRecord> sink) {
    this.everyRow = everyRow;
    this.top = top;
    this.sink = sink;
  }

  @Override
  public void accept(TraceEvent e) {
    if (!RuntimeEvents.RUNTIME_PROVIDER.equals(e.providerName())) {
      return;
    }
    long thread = e.threadId();
    switch (e.eventId()) {
      case ASSEMBLY_LOAD_START -> {
        DecodedPayload f = EventFields.of(e);
        push(assemblies, thread, open(e, 0, simpleName(text(f, "AssemblyName")), null));
      }
      case ASSEMBLY_LOAD_STOP -> {
        Open o = pop(assemblies, thread, -1);
        if (o != null) {
          DecodedPayload f = EventFields.of(e);
          String result = simpleName(text(f, "ResultAssemblyName"));
          String path = text(f, "ResultAssemblyPath");
          String detail =
              Boolean.FALSE.equals(f.get("Success"))
                  ? "failed"
                  : Boolean.TRUE.equals(f.get("Cached"))
                      ? "cached"
                      : path == null || path.isEmpty() ? "-" : path;
          emit(
              StartupRecord.ASSEMBLY,
              o,
              e,
              result == null || result.isEmpty() ? o.name() : result,
              detail,
              true);
        }
      }
      case JITTING_STARTED -> {
        DecodedPayload f = EventFields.of(e);
        String method = text(f, "MethodNamespace") + "." + text(f, "MethodName");
        Long id = number(f, "MethodID");
        Open o = open(e, id == null ? 0 : id, method, text(f, "MethodSignature"));
        push(jits, thread, o);
        if (mainOffset == null && isMain(text(f, "MethodNamespace"), text(f, "MethodName"))) {
          mainOffset = e.relativeNanos();
          mainClockNanos = e.clockNanos();
          mainMethod = method;
          sink.accept(
              new StartupRecord(
                  StartupRecord.MAIN, e.timeUtc(), e.relativeNanos(), null, thread, method, null));
        }
      }
      case METHOD_LOAD_VERBOSE -> {
        Long id = number(EventFields.of(e), "MethodID");
        Open o = id == null ? null : pop(jits, thread, id);
        if (o != null) {
          emit(StartupRecord.JIT, o, e, o.name(), o.detail(), true);
        }
      }
      case TYPE_LOAD_START -> {
        Long id = number(EventFields.of(e), "TypeLoadStartID");
        if (id != null) {
          types.put(id, open(e, id, null, null));
          typeDepth.merge(thread, 1, Integer::sum);
          bound(types);
        }
      }
      case TYPE_LOAD_STOP -> {
        DecodedPayload f = EventFields.of(e);
        Long id = number(f, "TypeLoadStartID");
        Open o = id == null ? null : types.remove(id);
        if (o != null) {
          int depth = typeDepth.merge(o.threadId(), -1, Integer::sum);
          if (depth <= 0) {
            typeDepth.remove(o.threadId());
          }
          Long level = number(f, "LoadLevel");
          emit(
              StartupRecord.TYPE,
              o,
              e,
              text(f, "TypeName"),
              level == null ? null : "level " + level,
              depth <= 0);
        }
      }
      case GC_START -> {
        DecodedPayload f = EventFields.of(e);
        Long count = number(f, "Count");
        Long reason = number(f, "Reason");
        if (count != null) {
          gcs.put(
              count,
              open(
                  e,
                  count,
                  "gen " + number(f, "Depth"),
                  reason == null ? null : GcReason.name(reason)));
          bound(gcs);
        }
      }
      case GC_END -> {
        Long count = number(EventFields.of(e), "Count");
        Open o = count == null ? null : gcs.remove(count);
        if (o != null) {
          emit(StartupRecord.GC, o, e, o.name(), o.detail(), true);
        }
      }
      default -> {}
    }
  }

  /** Whether a method compiled is the app's entry point (see the class comment). */
  static boolean isMain(String namespace, String name) {
    if (!"Main".equals(name) && !"<Main>$".equals(name)) {
      return false;
    }
    return namespace == null
        || !(namespace.startsWith("System.") || namespace.startsWith("Microsoft."));
  }

  private static Open open(TraceEvent e, long id, String name, String detail) {
    return new Open(e.timeUtc(), e.relativeNanos(), e.threadId(), id, name, detail);
  }

  private static void push(Map<Long, Deque<Open>> stacks, long thread, Open o) {
    Deque<Open> stack = stacks.computeIfAbsent(thread, t -> new ArrayDeque<>());
    stack.push(o);
    if (stack.size() > MAX_OPEN) {
      stack.removeLast();
    }
  }

  /** The innermost open start of a thread, or with {@code id >= 0} the innermost with that id. */
  private static Open pop(Map<Long, Deque<Open>> stacks, long thread, long id) {
    Deque<Open> stack = stacks.get(thread);
    if (stack == null || stack.isEmpty()) {
      return null;
    }
    if (id < 0) {
      return stack.pop();
    }
    for (Iterator<Open> it = stack.iterator(); it.hasNext(); ) {
      Open o = it.next();
      if (o.id() == id) {
        it.remove();
        return o;
      }
    }
    return null;
  }

  private static void bound(Map<Long, Open> open) {
    if (open.size() > MAX_OPEN) {
      open.clear();
    }
  }

  private void emit(
      String kind, Open o, TraceEvent stop, String name, String detail, boolean countsInTotal) {
    StartupRecord r =
        new StartupRecord(
            kind,
            o.time(),
            o.offsetNanos(),
            stop.relativeNanos() - o.offsetNanos(),
            o.threadId(),
            name,
            detail);
    tallies
        .computeIfAbsent(kind, k -> new StartupSummary.Tally(k, top))
        .add(r, countsInTotal, mainOffset != null && mainOffset <= o.offsetNanos());
    if (everyRow || kind.equals(StartupRecord.ASSEMBLY) || kind.equals(StartupRecord.GC)) {
      sink.accept(r);
    }
  }

  private static String text(DecodedPayload f, String name) {
    return f.get(name) instanceof String s ? s : null;
  }

  private static Long number(DecodedPayload f, String name) {
    return f.get(name) instanceof Number n ? n.longValue() : null;
  }

  /** {@code TargetApp} of {@code TargetApp, Version=1.0.0.0, Culture=neutral, ...}. */
  private static String simpleName(String assemblyName) {
    if (assemblyName == null) {
      return null;
    }
    int comma = assemblyName.indexOf(',');
    return comma < 0 ? assemblyName : assemblyName.substring(0, comma);
  }

  /**
   * The summary of everything seen.
   *
   * @param observedNanos how long the session watched
   */
  public StartupSummary summary(long observedNanos) {
    return summary(observedNanos, null);
  }

  /**
   * The summary of everything seen, for a child clrscope launched.
   *
   * @param observedNanos how long the session watched
   * @param launch when the child reached each step of its start, or {@code null} (a saved trace, a
   *     runtime that was waiting on a port already)
   */
  public StartupSummary summary(long observedNanos, LaunchClock launch) {
    List<StartupSummary.Category> categories = new java.util.ArrayList<>();
    for (String kind :
        List.of(StartupRecord.ASSEMBLY, StartupRecord.JIT, StartupRecord.TYPE, StartupRecord.GC)) {
      StartupSummary.Tally t = tallies.get(kind);
      if (t != null) {
        categories.add(t.category());
      }
    }
    StartupSummary.Launch fromLaunch = null;
    if (launch != null) {
      // Negative only if the child's clock is not clrscope's (a time namespace of its own): then
      // the two cannot be set against each other.
      Long resumeToMain =
          mainClockNanos == null || mainClockNanos < launch.resumedNanos()
              ? null
              : mainClockNanos - launch.resumedNanos();
      fromLaunch =
          new StartupSummary.Launch(launch.startToWaitNanos(), launch.heldNanos(), resumeToMain);
    }
    return new StartupSummary(observedNanos, mainOffset, mainMethod, fromLaunch, categories);
  }
}
