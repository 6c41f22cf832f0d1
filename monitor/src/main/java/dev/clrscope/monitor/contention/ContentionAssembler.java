package dev.clrscope.monitor.contention;

import dev.clrscope.monitor.HeldRecords;
import dev.clrscope.monitor.RuntimeKeyword;
import dev.clrscope.monitor.methods.MethodAddressMap;
import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.monitor.session.SessionRequest;
import dev.clrscope.nettrace.StackTrace;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.EventFields;
import dev.clrscope.nettrace.events.RuntimeEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimePayload;
import dev.clrscope.symbols.Frame;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Pairs the runtime's contention and wait events of each thread into {@link BlockedRecord}s.
 *
 * <p>What .NET 10 sends: a contended {@code lock} (Monitor, which .NET 9+ builds on
 * System.Threading.Lock, or a Lock itself) gives ContentionLockCreated once per lock, then per wait
 * ContentionStart_V2 (LockID, the locked object, and the owner's OS thread id) and
 * ContentionStop_V1 (DurationNs) on the waiting thread. Inside it, the lock blocks on a wait
 * handle, which raises WaitHandleWaitStart/Stop too: those are the lock's own and are not counted
 * again as waits. Other waits (WaitHandle.WaitOne and the like, Monitor.Wait, Thread.Join) give
 * WaitHandleWaitStart (WaitSource, the object) and WaitHandleWaitStop, whose difference is the
 * wait.
 *
 * <p>Not thread-safe: feed it from one thread.
 */
public final class ContentionAssembler implements EventConsumer {
  private static final int CONTENTION_START = RuntimeEvent.Runtime.CONTENTION_START;
  private static final int CONTENTION_STOP = RuntimeEvent.Runtime.CONTENTION_STOP;
  private static final int WAIT_START = RuntimeEvent.Runtime.WAIT_HANDLE_WAIT_START;
  private static final int WAIT_STOP = RuntimeEvent.Runtime.WAIT_HANDLE_WAIT_STOP;

  /** The runtime's own frames above the waiting method. */
  static final List<String> RUNTIME_NAMESPACES =
      List.of("System.Threading.", "System.Diagnostics.Tracing.NativeRuntimeEventSource.");

  private final MethodAddressMap methods;
  private final long minNanos;
  private final boolean keepStacks;
  private final Consumer<BlockedRecord> sink;
  private final HeldRecords held = new HeldRecords();
  private final Map<Long, Start> contending = new HashMap<>();
  private final Map<Long, Start> waiting = new HashMap<>();
  private final BlockedSummary.Accumulator summary = new BlockedSummary.Accumulator();

  /** The latest event's time, from the start of the trace: "now" for the waits not ended. */
  private long latestNanos;

  /** A start event waiting for its stop. */
  private record Start(
      Instant time,
      long relativeNanos,
      Long ownerThreadId,
      Long lockId,
      Long objectId,
      String source,
      StackTrace stack) {}

  /**
   * The live session that feeds an assembler: the runtime's Contention and WaitHandle keywords with
   * stacks, and Jit for the names of methods compiled meanwhile, at Verbose (the wait events'
   * level); with a rundown when attaching, so the summary names methods compiled before. Live
   * ordering: see {@link MethodAddressMap#namedStacksSession}.
   *
   * @param rundown whether the runtime sends its rundown at the end
   */
  public static SessionRequest sessionRequest(boolean rundown) {
    return sessionRequest(rundown, false);
  }

  /** {@link #sessionRequest(boolean)}, with what source lines take when {@code lines}. */
  public static SessionRequest sessionRequest(boolean rundown, boolean lines) {
    return MethodAddressMap.namedStacksSession(
        RuntimeKeyword.maskOf(RuntimeKeyword.CONTENTION, RuntimeKeyword.WAIT_HANDLE),
        rundown,
        lines,
        "clrscope-contention-reader");
  }

  /**
   * An assembler.
   *
   * @param methods names methods; the assembler feeds it every event it gets
   * @param minDuration shorter waits are left out of the records and the summary
   * @param keepStacks whether records carry their call stacks
   * @param sink takes each record
   */
  public ContentionAssembler(
      MethodAddressMap methods,
      Duration minDuration,
      boolean keepStacks,
      Consumer<BlockedRecord> sink) {
    this.methods = methods;
    this.minNanos = minDuration.toNanos();
    this.keepStacks = keepStacks;
    this.sink = sink;
  }

  @Override
  public void accept(TraceEvent e) {
    methods.accept(e);
    latestNanos = Math.max(latestNanos, e.relativeNanos());
    if (!RuntimeEvents.RUNTIME_PROVIDER.equals(e.providerName())) {
      return;
    }
    long thread = e.threadId();
    switch (e.eventId()) {
      case CONTENTION_START -> {
        Optional<RuntimePayload> p = RuntimeEvents.decode(e);
        if (p.isPresent() && p.get() instanceof RuntimePayload.ContentionStart s) {
          // V1 has no lock id or owner (decoded as 0).
          contending.put(
              thread,
              new Start(
                  e.timeUtc(),
                  e.relativeNanos(),
                  s.lockOwnerThreadId() == 0 ? null : s.lockOwnerThreadId(),
                  s.lockId() == 0 ? null : s.lockId(),
                  s.associatedObjectId() == 0 ? null : s.associatedObjectId(),
                  (s.contentionFlags() & 1) != 0 ? "Native" : "Managed",
                  e.stack()));
        }
      }
      case CONTENTION_STOP -> {
        Start s = contending.remove(thread);
        Optional<RuntimePayload> p = RuntimeEvents.decode(e);
        if (s != null && p.isPresent() && p.get() instanceof RuntimePayload.ContentionStop stop) {
          long nanos =
              stop.durationNs() > 0
                  ? Math.round(stop.durationNs())
                  : e.relativeNanos() - s.relativeNanos();
          emit(BlockedRecord.LOCK, thread, s, nanos);
        }
      }
      case WAIT_START -> {
        if (contending.containsKey(thread)) {
          return;
        }
        var f = EventFields.of(e);
        Object object = f.get("AssociatedObjectID");
        long objectId = object instanceof Number n ? n.longValue() : 0;
        waiting.put(
            thread,
            new Start(
                e.timeUtc(),
                e.relativeNanos(),
                null,
                null,
                objectId == 0 ? null : objectId,
                waitSource(f.get("WaitSource")),
                e.stack()));
      }
      case WAIT_STOP -> {
        Start s = waiting.remove(thread);
        if (s != null) {
          emit(BlockedRecord.WAIT, thread, s, e.relativeNanos() - s.relativeNanos());
        }
      }
      default -> {}
    }
  }

  /** WaitHandleWaitStart's WaitSource (ClrEtwAll.man's WaitHandleWaitSourceMap). */
  private static String waitSource(Object value) {
    long v = value instanceof Number n ? n.longValue() : -1;
    return v == 0 ? "Unknown" : v == 1 ? "MonitorWait" : String.valueOf(value);
  }

  private void emit(String kind, long thread, Start s, long nanos) {
    if (nanos < minNanos) {
      return;
    }
    summary.add(kind, s.stack(), nanos);
    held.handOut(() -> named(kind, thread, s, nanos));
  }

  private void named(String kind, long thread, Start s, long nanos) {
    Frame method = methods.firstFrameOutside(s.stack(), RUNTIME_NAMESPACES);
    sink.accept(
        new BlockedRecord(
            kind,
            s.time(),
            s.relativeNanos(),
            thread,
            nanos,
            s.ownerThreadId(),
            s.lockId(),
            s.objectId(),
            s.source(),
            method,
            keepStacks ? methods.frames(s.stack()) : List.of()));
  }

  /**
   * Holds every record until the stream ends, and names its frames then: a saved trace's rundown,
   * at its end, names the methods compiled before the recording, so its rows are named as its
   * summary is, in one pass over the file.
   */
  public ContentionAssembler namesAtEnd() {
    held.holdUntilEnd();
    return this;
  }

  @Override
  public void streamEnded() {
    held.release();
  }

  /**
   * The summary of every record handed out, with methods and stacks named from everything fed so
   * far (call it after the stream ended, to have the rundown's names); grouped by whole stacks when
   * records carry stacks, else by waiting method.
   *
   * @param observedNanos how long the session watched
   */
  public BlockedSummary summary(long observedNanos) {
    List<BlockedRecord> open = new ArrayList<>();
    inProgress(BlockedRecord.LOCK, contending, open);
    inProgress(BlockedRecord.WAIT, waiting, open);
    open.sort(Comparator.comparingLong(BlockedRecord::durationNanos).reversed());
    return summary.build(methods, observedNanos, keepStacks, open);
  }

  /**
   * The waits that began and have not ended, each timed up to the latest event seen: at the end of
   * a session, what threads were still blocked on when it stopped (a deadlock never ends its
   * waits), named from everything fed so far.
   */
  private void inProgress(String kind, Map<Long, Start> starts, List<BlockedRecord> out) {
    starts.forEach(
        (thread, s) -> {
          long soFar = Math.max(0, latestNanos - s.relativeNanos());
          if (soFar >= minNanos) {
            out.add(
                new BlockedRecord(
                    kind,
                    s.time(),
                    s.relativeNanos(),
                    thread,
                    soFar,
                    s.ownerThreadId(),
                    s.lockId(),
                    s.objectId(),
                    s.source(),
                    methods.firstFrameOutside(s.stack(), RUNTIME_NAMESPACES),
                    keepStacks ? methods.frames(s.stack()) : List.of()));
          }
        });
  }
}
