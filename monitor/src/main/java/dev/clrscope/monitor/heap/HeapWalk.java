package dev.clrscope.monitor.heap;

import dev.clrscope.heapwalk.GcDumpWriter;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.HeapSnapshotBuilder;
import dev.clrscope.ipc.session.EventLevel;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.monitor.RuntimeKeyword;
import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.monitor.session.SessionRequest;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.session.SessionRunner;
import dev.clrscope.monitor.session.StopSwitch;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.symbols.PdbFormatException;
import dev.clrscope.symbols.ProcessMaps;
import dev.clrscope.symbols.TypeDefinitions;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * A snapshot of the managed heap taken from outside the process, as dotnet-gcdump takes it: the
 * runtime walks its heap during one GC it is asked to force, and the walk's events are built into a
 * {@link HeapSnapshot}. The runtime walks faster than any reader takes the events in, so a big heap
 * can overflow the session's buffer: then the heap is walked once more, with a buffer four times
 * the size. {@code dump-heap} and {@code serve}'s {@code /gcdump} both take theirs here.
 */
public final class HeapWalk {
  /**
   * The keywords dotnet-gcdump asks for: GC (the GC's start and end), Type and GCHeapAndTypeNames
   * (type names), GCHeapDump (the walk's objects, references and roots), GCHeapCollect (force the
   * GC that walks).
   */
  public static final long HEAP_SNAPSHOT_KEYWORDS =
      RuntimeKeyword.maskOf(
          RuntimeKeyword.GC,
          RuntimeKeyword.TYPE,
          RuntimeKeyword.GC_HEAP_DUMP,
          RuntimeKeyword.MANAGED_HEAP_COLLECT,
          RuntimeKeyword.GC_HEAP_AND_TYPE_NAMES);

  /** dotnet-gcdump's buffer: a walk of millions of objects comes faster than it can be read. */
  public static final int DEFAULT_BUFFER_MB = 1024;

  /** What the retry asks for: four times the buffer that lost events, and at least this. */
  private static final int RETRY_BUFFER_MB = 1024;

  private static final Duration POLL = Duration.ofMillis(200);

  /** How long the stream may be silent, once events came, before the rest is asked for. */
  private static final Duration QUIET = Duration.ofSeconds(2);

  /** How long to wait for the first event before asking for what the runtime holds. */
  private static final Duration FIRST = Duration.ofSeconds(5);

  /** Runs one session: the caller's way (signals, releasing a waiting runtime) or plainly. */
  @FunctionalInterface
  public interface SessionStarter {
    /**
     * Starts a session of {@code request} wired to {@code stop} and {@code consumer}, runs {@code
     * body} on it and closes it.
     */
    SessionResult run(SessionRequest request, StopSwitch stop, Body body, EventConsumer consumer)
        throws InterruptedException;
  }

  /** What runs while the session does. */
  @FunctionalInterface
  public interface Body {
    /** Waits for the walk, then finishes the session. */
    SessionResult run(SessionRunner session) throws InterruptedException;
  }

  /** What a walk tells its user as it goes (stderr for the CLI, the log for serve). */
  public interface Listener {
    /** A line worth saying: a walk begins, a retry, what the runtime could not send. */
    void note(String line);

    /** Something to close once the walk ends (a progress line), opened as it begins. */
    default AutoCloseable progress(HeapSnapshotBuilder builder, SessionRunner session) {
      return () -> {};
    }

    /** A problem of the finished walk (lost events, a snapshot's own problems). */
    void warn(String line);
  }

  /** Why no snapshot came: the message says what happened and what to do. */
  public static final class WalkFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    WalkFailure(String message) {
      super(message);
    }
  }

  private final SessionStarter starter;
  private final Listener listener;
  private final long pid;
  private final String target;
  private final Duration limit;
  private int bufferMb;

  /**
   * Whether the last walk's session was stopped by the time limit before the walk was whole: the
   * events drained after the stop may still complete it, but the limit was not kept.
   */
  private boolean overLimit;

  /**
   * A walk of one process.
   *
   * @param starter how a session runs
   * @param listener who hears how it goes
   * @param pid the process, or 0 when unknown (a runtime reached through a port)
   * @param target the process as messages name it ({@code process 42 (App)})
   * @param bufferMb the session's buffer
   * @param limit how long the whole snapshot may take
   */
  public HeapWalk(
      SessionStarter starter,
      Listener listener,
      long pid,
      String target,
      int bufferMb,
      Duration limit) {
    this.starter = starter;
    this.listener = listener;
    this.pid = pid;
    this.target = target;
    this.bufferMb = bufferMb;
    this.limit = limit;
  }

  /** A starter that runs the session plainly on {@code client}. */
  public static SessionStarter plain(dev.clrscope.ipc.client.DiagnosticsClient client) {
    return (request, stop, body, consumer) -> {
      try (SessionRunner session = SessionRunner.start(client, request, stop, consumer)) {
        return body.run(session);
      }
    };
  }

  /**
   * Takes the snapshot.
   *
   * @throws WalkFailure if the process ended or the runtime did not walk its heap (whole) in time
   * @throws InterruptedException if interrupted
   */
  public HeapSnapshot take() throws InterruptedException {
    return take((graph, ending) -> {});
  }

  /**
   * What to do with the graph as soon as it is whole, while the session ends: the types' modules
   * (from the rundown) and the GC's own sizes are yet to come, in the snapshot {@link #take}
   * returns, which shares the graph's arrays ({@code GcDumpWriter.prepare} encodes a file's objects
   * meanwhile).
   */
  @FunctionalInterface
  public interface WhileEnding {
    /**
     * @param graph the walk's graph, without modules and sizes
     * @param ending true as long as the session has not ended
     */
    void graph(HeapSnapshot graph, BooleanSupplier ending);
  }

  /**
   * Takes the snapshot, handing the graph to {@code whileEnding} as soon as it is whole (called on
   * this thread, once per walk: again if the heap is walked again).
   *
   * @throws WalkFailure if the process ended or the runtime did not walk its heap (whole) in time
   * @throws InterruptedException if interrupted
   */
  public HeapSnapshot take(WhileEnding whileEnding) throws InterruptedException {
    try (WalkLock lock = WalkLock.acquire(pid, target, limit, listener)) {
      return takeAlone(whileEnding);
    }
  }

  /**
   * The share of objects whose type the runtime may leave unnamed before the snapshot is refused:
   * when another session keeps the Type keyword on (another tool walking the same heap), the
   * runtime names no type again, and every row would read {@code UNKNOWN 0x...}.
   */
  private static final double MOST_UNNAMED = 0.1;

  private HeapSnapshot takeAlone(WhileEnding whileEnding) throws InterruptedException {
    HeapSnapshotBuilder.NestedTypeNames nested = nestedTypeNames(pid);
    HeapSnapshotBuilder builder = new HeapSnapshotBuilder();
    builder.nestedTypeNames(nested);
    Walked walked = walk(builder, whileEnding);
    SessionResult result = walked.result();
    if ((result.droppedEvents() > 0 || builder.eventsLost()) && !result.endedByItself()) {
      int bigger = (int) Math.min(Integer.MAX_VALUE, Math.max(4L * bufferMb, RETRY_BUFFER_MB));
      listener.note(
          String.format(
              Locale.ROOT,
              "The runtime dropped events with a %d MB buffer (it walked the heap faster than"
                  + " the events were read): walking it again with %d MB ...",
              bufferMb,
              bigger));
      bufferMb = bigger;
      builder = new HeapSnapshotBuilder();
      builder.nestedTypeNames(nested);
      walked = walk(builder, whileEnding);
      result = walked.result();
    }
    if (result.failure() != null) {
      listener.warn("the trace stream broke off: " + result.failure().getMessage());
    }
    if (result.droppedEvents() > 0) {
      listener.warn(
          "the runtime dropped "
              + result.droppedEvents()
              + " events (its buffer was full): the snapshot is incomplete; raise --buffersize"
              + " above "
              + bufferMb
              + " MB (the target holds up to that much memory while the walk's events wait)");
    }
    SessionResult ended = result;
    if (overLimit) {
      throw new WalkFailure(
          "the runtime did not finish walking its heap within "
              + limitText()
              + " (--duration): nothing was written or reported; try a longer --duration");
    }
    HeapSnapshot graph =
        (walked.graph() != null ? Optional.of(walked.graph()) : builder.graph())
            .orElseThrow(
                () ->
                    new WalkFailure(
                        ended.endedByItself()
                            ? target
                                + " ended the session before its runtime walked the heap; a heap"
                                + " snapshot needs a process that keeps running"
                            : "the runtime did not walk its heap within "
                                + limitText()
                                + " of being asked: the target may be too busy (a heap walk"
                                + " needs .NET 5 or later); try a longer --duration"));
    if (!builder.isComplete()) {
      // A walk cut off is not a smaller heap: its missing objects would read as freed.
      throw new WalkFailure(
          (ended.endedByItself()
                  ? target + " ended during the heap walk"
                  : "the runtime did not finish walking its heap within "
                      + limitText()
                      + " (try a longer --duration)")
              + ": the snapshot is incomplete, nothing was written or reported");
    }
    HeapSnapshot snapshot = builder.complete(graph);
    long unnamed = builder.unnamedObjects();
    if (unnamed > 0 && unnamed >= MOST_UNNAMED * snapshot.objectCount()) {
      throw new WalkFailure(
          String.format(
              Locale.ROOT,
              "the runtime of %s did not name the types of %,d of its %,d objects: another tool"
                  + " is walking its heap (or keeps the runtime's Type events on), and the runtime"
                  + " names each type once for all of them; try again when it is done",
              target,
              unnamed,
              snapshot.objectCount()));
    }
    snapshot.problems().forEach(listener::warn);
    return snapshot;
  }

  /**
   * Nested types' whole names from their modules' files (as the process sees them: through its
   * {@code /proc/PID/root}), each file read once; a module that cannot be read leaves its types as
   * the runtime named them.
   */
  private static HeapSnapshotBuilder.NestedTypeNames nestedTypeNames(long pid) {
    Path root = pid > 0 ? Path.of("/proc/" + pid + "/root") : null;
    Map<String, Optional<TypeDefinitions>> read = new HashMap<>();
    return (path, token) -> {
      Optional<TypeDefinitions> types =
          read.computeIfAbsent(
              path,
              p -> {
                try {
                  return Optional.of(TypeDefinitions.read(ProcessMaps.seenThrough(root, p)));
                } catch (IOException | PdbFormatException | RuntimeException e) {
                  return Optional.empty();
                }
              });
      try {
        return types.isPresent() && types.get().isNested(token) ? types.get().name(token) : null;
      } catch (PdbFormatException e) {
        return null;
      }
    };
  }

  /**
   * A session's outcome and the graph, when it was built while the session ended (the walk was
   * whole by then); else null.
   */
  private record Walked(SessionResult result, HeapSnapshot graph) {}

  private Walked walk(HeapSnapshotBuilder builder, WhileEnding whileEnding)
      throws InterruptedException {
    listener.note("Walking the managed heap of " + target + " (one forced full GC) ...");
    // A runtime that cannot choose the rundown's keywords or turn stacks off (.NET 8) gets the
    // classic rundown with stacks, as dotnet-gcdump asks every runtime: the client says so once.
    return walk(builder, config(bufferMb), whileEnding);
  }

  /**
   * The heap session: the runtime provider with the snapshot keywords at Informational (what the
   * runtime checks for heap-walk events); no stacks (the walk does not need them, and the GC thread
   * would be walked for every event); at the end, the rundown of the modules alone (Loader), whose
   * files the .gcdump names for each type.
   */
  private static EventPipeSessionConfig config(int bufferMb) {
    return new EventPipeSessionConfig(
        bufferMb,
        List.of(
            new EventPipeProvider(
                RuntimeEvents.RUNTIME_PROVIDER,
                HEAP_SNAPSHOT_KEYWORDS,
                EventLevel.INFORMATIONAL.value())),
        RuntimeKeyword.LOADER.mask(),
        false,
        false);
  }

  /** The limit as a message says it: {@code 500 ms}, {@code 60 s}, {@code 1.5 s}. */
  private String limitText() {
    long ms = limit.toMillis();
    return ms < 1000 ? ms + " ms" : ms % 1000 == 0 ? ms / 1000 + " s" : ms / 1000.0 + " s";
  }

  /**
   * One session: the events read in the order of each block as it comes (the walk's events all come
   * from the thread that walks, in order; waiting for a global order held them until the stream
   * ended), the graph built as they arrive on a thread of its own ({@link BuildAhead}: the reader's
   * thread decodes the stream on one core, the builder's fills the columns on the other), and once
   * the walk's GCEnd has come, the session stopped on another thread (StopTracing, then the
   * modules' rundown) while this one resolves the graph.
   */
  private Walked walk(
      HeapSnapshotBuilder builder, EventPipeSessionConfig config, WhileEnding whileEnding)
      throws InterruptedException {
    StopSwitch stop = new StopSwitch();
    boolean[] completeInTime = {false};
    HeapTimeline.mark("starting the session");
    boolean[] marked = new boolean[3];
    HeapSnapshot[] graph = new HeapSnapshot[1];
    AtomicBoolean whole = new AtomicBoolean();
    SessionResult result;
    try (BuildAhead building =
        new BuildAhead(
            event -> {
              if (!marked[0]) {
                marked[0] = true;
                HeapTimeline.mark("first event");
              }
              builder.accept(event);
              if (!marked[1] && builder.hasStarted()) {
                marked[1] = true;
                HeapTimeline.mark("the walk's GCStart, written " + lag(event) + " ms before");
              }
              if (builder.isComplete() && !completeInTime[0]) {
                completeInTime[0] = !stop.stoppedByDuration();
                if (!marked[2]) {
                  marked[2] = true;
                  HeapTimeline.mark("the walk's GCEnd, written " + lag(event) + " ms before");
                }
                // Written after everything the builder took: whoever reads it true sees them.
                whole.set(true);
                stop.request("the heap walk is complete");
              }
            },
            stop)) {
      result =
          starter.run(
              SessionRequest.of(config, "clrscope-heap-reader")
                  .withOrdering(SessionRequest.Ordering.LIVE)
                  .withDuration(limit),
              stop,
              session -> {
                HeapTimeline.mark("session started");
                awaitWalk(builder, session, stop);
                FutureTask<SessionResult> finishing = new FutureTask<>(session::finish);
                Thread finisher = new Thread(finishing, "clrscope-heap-stop");
                finisher.setDaemon(true);
                finisher.start();
                try {
                  // The builder's thread asked for the stop once it had built the GCEnd: then the
                  // graph is whole (what comes after it, the GC's sizes and the modules, it takes
                  // while this one resolves the graph).
                  if (whole.get() && !builder.eventsLost()) {
                    HeapTimeline.mark("building the graph");
                    graph[0] = builder.graph().orElse(null);
                    HeapTimeline.mark("graph built");
                    if (graph[0] != null) {
                      whileEnding.graph(graph[0], () -> !finishing.isDone());
                    }
                  }
                } finally {
                  // The session is closed after this returns: never while it is still stopping.
                  finisher.join();
                }
                // Every event read has been built before the result is looked at.
                building.finish();
                SessionResult r = finished(finishing);
                HeapTimeline.mark(
                    "stream ended: " + r.events() + " events, " + r.bytes() + " bytes");
                return r;
              },
              building::accept);
    }
    overLimit = stop.stoppedByDuration() && !completeInTime[0];
    return new Walked(result, graph[0]);
  }

  /**
   * Waits until the walk is complete or the stream is quiet. The runtime hands a thread's events
   * over when its buffer fills, when its streaming thread next looks (every 100 ms) or when the
   * session stops; should the walk's last events (its GCEnd) wait there, stopping the session
   * delivers them. A small heap's events may all wait there: silence from the start counts too, a
   * little longer.
   */
  private void awaitWalk(HeapSnapshotBuilder builder, SessionRunner session, StopSwitch stop)
      throws InterruptedException {
    long seen = 0;
    long quietSince = System.nanoTime();
    try (AutoCloseable progress = listener.progress(builder, session)) {
      while (!stop.awaitStop(POLL)) {
        long n = session.eventsRead();
        if (n != seen) {
          seen = n;
          quietSince = System.nanoTime();
        } else if (System.nanoTime() - quietSince > (n > 0 ? QUIET : FIRST).toNanos()) {
          HeapTimeline.mark("quiet: " + session.bytesRead() + " bytes read");
          stop.request("no new heap events for a while");
        }
      }
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("closing the progress line failed", e);
    }
  }

  /** What the stopping thread came to; what it threw, thrown here. */
  private static SessionResult finished(FutureTask<SessionResult> finishing)
      throws InterruptedException {
    try {
      return finishing.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof InterruptedException interrupted) {
        throw interrupted;
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException("stopping the heap session failed", cause);
    }
  }

  private static long lag(dev.clrscope.nettrace.TraceEvent e) {
    return (System.nanoTime() - e.clockNanos()) / 1_000_000;
  }

  /** The .gcdump header's facts of process {@code pid}, now. */
  public static GcDumpWriter.About about(long pid) {
    return new GcDumpWriter.About(
        pid > 0
            ? ProcessHandle.of(pid)
                .flatMap(h -> h.info().command())
                .map(c -> Path.of(c).getFileName().toString())
                .orElse(null)
            : null,
        Math.max(pid, 0),
        // .NET ticks: 100 ns since 0001-01-01, 621,355,968,000,000,000 of them to 1970.
        621_355_968_000_000_000L + System.currentTimeMillis() * 10_000L,
        true);
  }

  /** Writes {@code snapshot} of process {@code pid} as a .gcdump to {@code out}. */
  public static void write(HeapSnapshot snapshot, long pid, OutputStream out) throws IOException {
    GcDumpWriter.write(snapshot, about(pid), out);
  }

  /**
   * How much of a .gcdump {@link #prepare} encodes ahead at most: what the session's end (about 0.1
   * s) leaves time for, without holding a big heap's whole file in memory.
   */
  private static final long PREPARED_BYTES = 32L << 20;

  /**
   * Begins the .gcdump of {@code graph} while its session ends ({@link WhileEnding}); {@link
   * #write(HeapSnapshot, GcDumpWriter.Prepared, long, OutputStream)} finishes it.
   */
  public static GcDumpWriter.Prepared prepare(HeapSnapshot graph, BooleanSupplier ending) {
    GcDumpWriter.Prepared p = GcDumpWriter.prepare(graph, PREPARED_BYTES, ending);
    HeapTimeline.mark("file begun: " + p.encodedAhead() + " bytes encoded while the session ended");
    return p;
  }

  /**
   * Writes {@code snapshot} of process {@code pid} as a .gcdump to {@code out}, carrying on from
   * {@code prepared} when it was begun for this snapshot's graph (else from the start).
   */
  public static void write(
      HeapSnapshot snapshot, GcDumpWriter.Prepared prepared, long pid, OutputStream out)
      throws IOException {
    if (prepared != null && prepared.isFor(snapshot)) {
      prepared.write(snapshot, about(pid), out);
    } else {
      write(snapshot, pid, out);
    }
  }
}
