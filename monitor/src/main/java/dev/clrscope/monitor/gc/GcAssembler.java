package dev.clrscope.monitor.gc;

import dev.clrscope.ipc.session.EventLevel;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.monitor.RuntimeKeyword;
import dev.clrscope.monitor.counters.CounterEventDecoder;
import dev.clrscope.monitor.counters.CounterPlan;
import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.monitor.session.SessionRequest;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimePayload;
import dev.clrscope.nettrace.events.RuntimePayload.GcEnd;
import dev.clrscope.nettrace.events.RuntimePayload.GcGlobalHeapHistory;
import dev.clrscope.nettrace.events.RuntimePayload.GcHeapStats;
import dev.clrscope.nettrace.events.RuntimePayload.GcPerHeapHistory;
import dev.clrscope.nettrace.events.RuntimePayload.GcStart;
import dev.clrscope.nettrace.events.RuntimePayload.GenerationData;
import dev.clrscope.nettrace.events.RuntimePayload.SuspendEeBegin;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Turns the runtime's GC events (keyword GC at Informational) into one {@link GcRecord} per GC,
 * handed to a consumer as soon as the GC is complete, so a live view can print it at once.
 *
 * <p>The events of one blocking GC arrive as SuspendEEBegin, SuspendEEEnd, GCStart,
 * GCPerHeapHistory (one per heap), GCGlobalHeapHistory, GCEnd, GCHeapStats, RestartEEBegin,
 * RestartEEEnd. A background GC starts inside a suspension, runs while the threads do, suspends
 * them again briefly, and may let foreground (ephemeral) GCs run meanwhile, so several GCs can be
 * open at once. The rules:
 *
 * <ul>
 *   <li>GCEnd is matched to its GCStart by number.
 *   <li>Per-heap and global history belong to the most recently started GC that has not ended;
 *       GCHeapStats to the most recently ended GC that has none yet.
 *   <li>A suspension (SuspendEEBegin to RestartEEEnd) counts for the blocking GC that started in
 *       it; else for the background GC that started in it; else for the background GC in progress.
 *       Suspensions for other reasons (debugger, profiler) that hold no GC are not GC pauses.
 *   <li>A GC is complete when it has ended, has its heap statistics, and the suspension it started
 *       in is over. A GC that lacks heap statistics is completed anyway when the next GC starts.
 * </ul>
 *
 * Not thread-safe: feed it from one thread.
 */
public final class GcAssembler implements EventConsumer {
  /** SuspendEEBegin reasons that are GC work: SUSPEND_FOR_GC and SUSPEND_FOR_GC_PREP. */
  private static final long SUSPEND_FOR_GC = 1;

  private static final long SUSPEND_FOR_GC_PREP = 6;

  private static final int GC_START = RuntimeEvent.Runtime.GC_START;
  private static final int GC_END = RuntimeEvent.Runtime.GC_END;
  private static final int RESTART_EE_END = RuntimeEvent.Runtime.GC_RESTART_EE_END;
  private static final int HEAP_STATS = RuntimeEvent.Runtime.GC_HEAP_STATS;
  private static final int SUSPEND_EE_END = RuntimeEvent.Runtime.GC_SUSPEND_EE_END;
  private static final int SUSPEND_EE_BEGIN = RuntimeEvent.Runtime.GC_SUSPEND_EE_BEGIN;
  private static final int PER_HEAP_HISTORY = RuntimeEvent.Runtime.GC_PER_HEAP_HISTORY;
  private static final int GLOBAL_HEAP_HISTORY = 205;

  private final Consumer<GcRecord> sink;
  private final Map<Long, Builder> open = new LinkedHashMap<>();
  private Suspension suspension;
  private Builder lastEnded;
  private long pausedNanos;
  private long pauses;
  private long unfinished;
  private Long firstEventNanos;
  private long lastEventNanos;

  /**
   * The live session that feeds an assembler: the runtime's GC events at Informational (with more
   * runtime keywords if asked) and a heartbeat, read in global order.
   *
   * <p>The heartbeat: the runtime writes a thread's buffered events in runs, and an event is
   * released in global order only once a later event of any thread proves nothing older is still to
   * come. GC events come in bursts; without other events the tail of a GC (its GCEnd, its
   * RestartEEEnd) would wait for the next GC or the end of the session. MetricsEventSource's
   * collection events, once a second, release each GC within about a second. Not the runtime's own
   * EventCounters: enabling those while a process is still starting can deadlock it
   * (dotnet/runtime#105682), and {@code gcstats -- COMMAND} does exactly that.
   *
   * <p>Global, not live, ordering: the assembler pairs events of different threads by their order
   * (a GC belongs to the suspension it starts in, and the suspending thread can differ from the GC
   * thread firing GCStart/GCEnd), and live ordering may deliver one thread's whole run (say
   * SuspendEEBegin to RestartEEEnd) before an older run of another thread (the GCStart inside it)
   * when the runtime's flush spans two blocks; the row would then silently lose its pause.
   *
   * @param extraKeywords runtime keywords added to GC (such as {@link
   *     RuntimeKeyword#MANAGED_HEAP_COLLECT})
   * @param arguments the runtime provider's arguments (such as {@code Id=N})
   */
  public static SessionRequest sessionRequest(long extraKeywords, Map<String, String> arguments) {
    return sessionRequest(extraKeywords, arguments, 0);
  }

  /**
   * {@link #sessionRequest(long, Map)} for a runtime of major version {@code runtimeMajor} (0 when
   * unknown). Before .NET 9 nothing in a process loads MetricsEventSource's assembly unless the app
   * uses it, so there is no heartbeat from it: the runtime's own EventCounters beat instead, once a
   * second, as dotnet-counters reads .NET 8. (Launched, a .NET 8 app then starts with them on, as
   * under {@code dotnet-counters -- COMMAND}.)
   */
  public static SessionRequest sessionRequest(
      long extraKeywords, Map<String, String> arguments, int runtimeMajor) {
    int informational = EventLevel.INFORMATIONAL.value();
    List<EventPipeProvider> providers = new ArrayList<>();
    providers.add(
        new EventPipeProvider(
            RuntimeEvents.RUNTIME_PROVIDER,
            RuntimeKeyword.GC.mask() | extraKeywords,
            informational,
            arguments,
            List.of()));
    providers.add(
        new EventPipeProvider(
            CounterEventDecoder.METRICS_PROVIDER,
            CounterPlan.TIME_SERIES_VALUES,
            informational,
            Map.of(
                "SessionId", UUID.randomUUID().toString(),
                "Metrics", "System.Runtime",
                "RefreshInterval", "1"),
            List.of()));
    if (runtimeMajor > 0 && runtimeMajor < 9) {
      providers.add(
          new EventPipeProvider(
              "System.Runtime",
              0,
              informational,
              Map.of("EventCounterIntervalSec", "1"),
              List.of()));
    }
    return SessionRequest.of(
        new EventPipeSessionConfig(16, providers, 0, false, false), "clrscope-gc-reader");
  }

  /** An assembler that hands each complete GC to {@code sink}. */
  public GcAssembler(Consumer<GcRecord> sink) {
    this.sink = sink;
  }

  /** Feeds one event; events of other providers and ids are ignored. */
  @Override
  public void accept(TraceEvent e) {
    if (!RuntimeEvents.RUNTIME_PROVIDER.equals(e.providerName())) {
      return;
    }
    int id = e.eventId();
    if (!isGcEvent(id)) {
      return;
    }
    Optional<RuntimePayload> p = RuntimeEvents.decode(e);
    if (p.isPresent()) {
      accept(id, e.relativeNanos(), e.timeUtc(), p.get());
    }
  }

  /**
   * Feeds one decoded runtime event.
   *
   * @param eventId the runtime event id (it tells SuspendEEEnd from RestartEEEnd, which share a
   *     payload)
   * @param nanos the event's time in nanoseconds from any fixed origin
   * @param utc the event's wall-clock time
   */
  public void accept(int eventId, long nanos, Instant utc, RuntimePayload payload) {
    if (firstEventNanos == null) {
      firstEventNanos = nanos;
    }
    lastEventNanos = Math.max(lastEventNanos, nanos);
    switch (eventId) {
      case SUSPEND_EE_BEGIN -> {
        long reason = payload instanceof SuspendEeBegin s ? s.reason() : SUSPEND_FOR_GC;
        suspension =
            new Suspension(nanos, reason == SUSPEND_FOR_GC || reason == SUSPEND_FOR_GC_PREP);
      }
      case SUSPEND_EE_END -> {
        if (suspension != null && suspension.suspendedNanos == null) {
          suspension.suspendedNanos = nanos;
        }
      }
      case RESTART_EE_END -> endSuspension(nanos);
      case GC_START -> {
        if (payload instanceof GcStart s) {
          startGc(s, nanos, utc);
        }
      }
      case GC_END -> {
        if (payload instanceof GcEnd end) {
          Builder b = open.get(end.count());
          if (b == null) {
            b = latestRunning();
          }
          if (b != null) {
            b.endNanos = nanos;
            lastEnded = b;
          }
        }
      }
      case HEAP_STATS -> {
        if (payload instanceof GcHeapStats stats) {
          Builder b = lastEnded != null && lastEnded.stats == null ? lastEnded : latestRunning();
          if (b != null) {
            b.stats = stats;
          }
        }
      }
      case PER_HEAP_HISTORY -> {
        if (payload instanceof GcPerHeapHistory h) {
          Builder b = latestRunning();
          if (b != null) {
            b.heaps.add(h);
          }
        }
      }
      case GLOBAL_HEAP_HISTORY -> {
        if (payload instanceof GcGlobalHeapHistory g) {
          Builder b = latestRunning();
          if (b != null) {
            b.global = g;
          }
        }
      }
      default -> {
        return;
      }
    }
    emitComplete(false);
  }

  /**
   * Hands out every GC that ended, complete or not (the stream is over); GCs that never ended are
   * counted in {@link #unfinishedGcs()} and dropped.
   */
  public void finish() {
    emitRemaining();
  }

  /** The stream is over: {@link #finish()}. */
  @Override
  public void streamEnded() {
    finish();
  }

  private void emitRemaining() {
    if (suspension != null && !suspension.started.isEmpty()) {
      // The stream ended inside a pause: what was seen of it is all there is.
      suspension = null;
    }
    emitComplete(true);
    unfinished += open.size();
    open.clear();
  }

  /** Total time the threads were stopped for GCs, over every suspension seen. */
  public long pausedNanos() {
    return pausedNanos;
  }

  /** How many GC suspensions were seen. */
  public long pauses() {
    return pauses;
  }

  /** GCs that started but had not ended when {@link #finish()} was called. */
  public long unfinishedGcs() {
    return unfinished;
  }

  /** The time of the first and last events seen, or {@code null} before any. */
  public Long firstEventNanos() {
    return firstEventNanos;
  }

  /** The time of the latest event seen. */
  public long lastEventNanos() {
    return lastEventNanos;
  }

  private static boolean isGcEvent(int id) {
    return id == GC_START
        || id == GC_END
        || id == RESTART_EE_END
        || id == HEAP_STATS
        || id == SUSPEND_EE_END
        || id == SUSPEND_EE_BEGIN
        || id == PER_HEAP_HISTORY
        || id == GLOBAL_HEAP_HISTORY;
  }

  private void startGc(GcStart s, long nanos, Instant utc) {
    // A GC that ended without heap statistics will not get them now.
    for (Builder b : open.values()) {
      if (b.endNanos != null) {
        b.statsAbandoned = true;
      }
    }
    Builder b = new Builder(s, nanos, utc);
    if (suspension != null) {
      suspension.started.add(b);
      b.awaitingRestart = true;
    }
    emitComplete(false);
    open.put(s.count(), b);
  }

  private void endSuspension(long nanos) {
    Suspension s = suspension;
    suspension = null;
    if (s == null) {
      return;
    }
    Builder owner = null;
    for (Builder b : s.started) {
      b.awaitingRestart = false;
      if (b.type != GcType.Background.code()) {
        owner = b;
      }
    }
    if (owner == null && !s.started.isEmpty()) {
      owner = s.started.get(0);
    }
    if (owner == null) {
      for (Builder b : open.values()) {
        if (b.type == GcType.Background.code() && b.endNanos == null) {
          owner = b;
        }
      }
    }
    if (owner == null && !s.forGc) {
      return;
    }
    long pause = nanos - s.beginNanos;
    pausedNanos += pause;
    pauses++;
    if (owner != null) {
      owner.pauseNanos += pause;
      if (s.suspendedNanos != null) {
        owner.suspendNanos += s.suspendedNanos - s.beginNanos;
      }
      owner.pauseSeen = true;
    }
  }

  /** The most recently started GC that has not ended. */
  private Builder latestRunning() {
    Builder latest = null;
    for (Builder b : open.values()) {
      if (b.endNanos == null) {
        latest = b;
      }
    }
    return latest;
  }

  private void emitComplete(boolean streamOver) {
    Iterator<Builder> it = open.values().iterator();
    List<Builder> done = new ArrayList<>();
    while (it.hasNext()) {
      Builder b = it.next();
      boolean ended = b.endNanos != null;
      boolean statsSettled = b.stats != null || b.statsAbandoned || streamOver;
      boolean pauseSettled = !b.awaitingRestart || streamOver;
      if (ended && statsSettled && pauseSettled) {
        it.remove();
        done.add(b);
      }
    }
    for (Builder b : done) {
      if (lastEnded == b) {
        lastEnded = null;
      }
      sink.accept(b.build());
    }
  }

  /** One suspension of the managed threads, and the GCs that started during it. */
  private static final class Suspension {
    final long beginNanos;
    final boolean forGc;
    Long suspendedNanos;
    final List<Builder> started = new ArrayList<>();

    Suspension(long beginNanos, boolean forGc) {
      this.beginNanos = beginNanos;
      this.forGc = forGc;
    }
  }

  /** A GC being assembled. */
  private static final class Builder {
    final long number;
    final int depth;
    final long reason;
    final long type;
    final long csn;
    final long startNanos;
    final Instant startUtc;
    Long endNanos;
    boolean awaitingRestart;
    boolean pauseSeen;
    long pauseNanos;
    long suspendNanos;
    GcHeapStats stats;
    boolean statsAbandoned;
    GcGlobalHeapHistory global;
    final List<GcPerHeapHistory> heaps = new ArrayList<>();

    Builder(GcStart s, long nanos, Instant utc) {
      number = s.count();
      depth = (int) s.depth();
      reason = s.reason();
      type = s.type();
      csn = s.clientSequenceNumber();
      startNanos = nanos;
      startUtc = utc;
    }

    GcRecord build() {
      List<HeapHistory> heapHistories = new ArrayList<>();
      heaps.sort((a, b) -> Long.compare(a.heapIndex(), b.heapIndex()));
      Long before = null;
      Long fragmentation = null;
      Long survived = null;
      for (GcPerHeapHistory h : heaps) {
        HeapHistory hh = heapHistory(h);
        heapHistories.add(hh);
        before = (before == null ? 0 : before) + hh.sizeBefore().total();
        fragmentation =
            (fragmentation == null ? 0 : fragmentation) + hh.fragmentationAfter().total();
        survived = (survived == null ? 0 : survived) + hh.survived().total();
      }
      GenerationSizes after = null;
      Long promoted = null;
      Long pinned = null;
      if (stats != null) {
        after =
            new GenerationSizes(
                stats.generationSize0(),
                stats.generationSize1(),
                stats.generationSize2(),
                stats.generationSize3(),
                stats.generationSize4());
        promoted =
            stats.totalPromotedSize0()
                + stats.totalPromotedSize1()
                + stats.totalPromotedSize2()
                + stats.totalPromotedSize3()
                + stats.totalPromotedSize4();
        pinned = stats.pinnedObjectCount();
      }
      if (survived != null) {
        // GCHeapStats leaves the POH's promoted bytes at 0 (.NET 10); the per-heap survivors count
        // every generation, as GC.GetGCMemoryInfo().PromotedBytes does.
        promoted = survived;
      }
      CondemnReasons reasons = null;
      if (!heapHistories.isEmpty()) {
        reasons = heapHistories.get(0).condemnReasons();
      }
      if (global != null) {
        CondemnReasons g =
            CondemnReasons.decode(global.condemnReasons0(), global.condemnReasons1());
        reasons = reasons == null ? g : reasons.withConditionsOf(g);
      }
      return new GcRecord(
          number,
          depth,
          GcType.name(type),
          GcReason.name(reason),
          csn,
          startNanos,
          startUtc,
          endNanos == null ? null : endNanos - startNanos,
          pauseSeen ? pauseNanos : null,
          pauseSeen ? suspendNanos : null,
          before,
          after == null ? null : after.total(),
          after,
          promoted,
          fragmentation,
          pinned,
          global == null ? null : (int) global.condemnedGeneration(),
          reasons,
          global == null ? null : GcHeapFlags.pauseMode(global.pauseMode()),
          global == null ? null : global.memoryPressure(),
          global == null ? List.of() : GcHeapFlags.globalMechanisms(global.globalMechanisms()),
          heapHistories);
    }

    private static HeapHistory heapHistory(GcPerHeapHistory h) {
      List<GenerationData> g = h.generations();
      int n = Math.min(g.size(), 5);
      long[] budget = new long[n];
      long[] before = new long[n];
      long[] after = new long[n];
      long[] survived = new long[n];
      long[] frag = new long[n];
      for (int i = 0; i < n; i++) {
        GenerationData d = g.get(i);
        budget[i] = d.newAllocation();
        before[i] = d.sizeBefore();
        after[i] = d.sizeAfter();
        survived[i] = d.pinnedSurv() + d.nonePinnedSurv();
        frag[i] = d.freeListAfter() + d.freeObjAfter();
      }
      return new HeapHistory(
          (int) h.heapIndex(),
          GenerationSizes.of(budget),
          GenerationSizes.of(before),
          GenerationSizes.of(after),
          GenerationSizes.of(survived),
          GenerationSizes.of(frag),
          CondemnReasons.decode(h.condemnReasons0(), h.condemnReasons1()),
          GcHeapFlags.compactReason(h.compactMechanisms()),
          GcHeapFlags.expandMechanism(h.expandMechanisms()));
    }
  }
}
