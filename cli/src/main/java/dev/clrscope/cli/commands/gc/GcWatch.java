package dev.clrscope.cli.commands.gc;

import dev.clrscope.ipc.client.DiagnosticsClient;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSession;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.monitor.gc.GcAssembler;
import dev.clrscope.monitor.gc.GcRecord;
import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One EventPipe session that watches GCs: a reader thread parses the live stream, assembles GC
 * records and hands each one, on that thread, to a consumer as soon as it is complete.
 *
 * <p>The runtime writes a thread's buffered events in runs, and a live reader can release an event
 * only once a later "sorted" event of any thread proves nothing older is still to come. GC events
 * come in bursts; without other events the tail of a GC (its GCEnd, its RestartEEEnd) would wait
 * for the next GC or the end of the session. So the session also enables MetricsEventSource at a
 * one-second interval: its periodic collection events release each GC within about a second.
 *
 * <p>The reader keeps the default (global) ordering, not {@link NetTraceReader#openLive}: {@link
 * GcAssembler} pairs events of different threads by their order (a GC belongs to the suspension it
 * starts in, and the suspending thread can differ from the GC thread firing GCStart/GCEnd, as the
 * background GC thread does from the foreground GCs' threads), and live ordering may deliver one
 * thread's whole run (say SuspendEEBegin to RestartEEEnd) before an older run of another thread
 * (the GCStart inside it) when the runtime's flush spans two blocks; the row would then silently
 * lose its pause.
 */
public final class GcWatch implements AutoCloseable {
  /** Keyword GC of the runtime provider. */
  public static final long GC_KEYWORD = 0x1;

  /** Keyword GCHeapCollect: enabling it makes the runtime run a blocking gen2 GC. */
  public static final long GC_HEAP_COLLECT_KEYWORD = 0x800000;

  private static final int INFORMATIONAL = 4;

  /** MetricsEventSource's TimeSeriesValues keyword: its periodic collection events. */
  private static final long METRICS_TIME_SERIES_KEYWORD = 0x2;

  private final EventPipeSession session;
  private final GcAssembler assembler;
  private final Thread reader;
  private final CountDownLatch ended = new CountDownLatch(1);
  private final long startedNanos = System.nanoTime();
  private volatile long endedNanos;
  private volatile RuntimeException failure;
  private volatile long droppedEvents;

  private GcWatch(
      EventPipeSession session, Consumer<GcRecord> onGc, Runnable onStreamEnd, String name) {
    this.session = session;
    this.assembler = new GcAssembler(onGc);
    this.reader = new Thread(() -> read(onStreamEnd), name);
    reader.setDaemon(true);
  }

  /**
   * The providers of a GC watch: the runtime's GC events at Informational, more runtime keywords if
   * asked, and the heartbeat counters.
   *
   * @param extraKeywords added to the GC keyword (such as GCHeapCollect)
   * @param arguments the runtime provider's arguments (such as {@code Id=N})
   */
  public static EventPipeSessionConfig config(long extraKeywords, Map<String, String> arguments) {
    return new EventPipeSessionConfig(
        16,
        List.of(
            new EventPipeProvider(
                RuntimeEvents.RUNTIME_PROVIDER,
                GC_KEYWORD | extraKeywords,
                INFORMATIONAL,
                arguments,
                List.of()),
            // The heartbeat: MetricsEventSource's collection events, once a second. Not the
            // runtime's own EventCounters: enabling those while a process is still starting can
            // deadlock it (dotnet/runtime#105682), and gcstats -- COMMAND does exactly that.
            new EventPipeProvider(
                "System.Diagnostics.Metrics",
                METRICS_TIME_SERIES_KEYWORD,
                INFORMATIONAL,
                Map.of(
                    "SessionId", UUID.randomUUID().toString(),
                    "Metrics", "System.Runtime",
                    "RefreshInterval", "1"),
                List.of())),
        0,
        false,
        false);
  }

  /**
   * Starts a session and its reader.
   *
   * @param onGc called on the reader thread for each complete GC
   * @param onStreamEnd called on the reader thread when the stream ends (the session stopped or the
   *     target exited), after the last {@code onGc}
   */
  public static GcWatch start(
      DiagnosticsClient client,
      EventPipeSessionConfig config,
      Consumer<GcRecord> onGc,
      Runnable onStreamEnd) {
    EventPipeSession session = client.startEventPipeSession(config);
    GcWatch w = new GcWatch(session, onGc, onStreamEnd, "clrscope-gc-reader");
    w.reader.start();
    return w;
  }

  private void read(Runnable onStreamEnd) {
    try (NetTraceReader r = NetTraceReader.open(session.stream(), true)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        assembler.accept(e);
      }
      droppedEvents = r.droppedEvents();
      // A stream cut short by the target exiting is lenient mode's stop reason: it is still the
      // end.
    } catch (UncheckedIOException e) {
      // The connection was closed under us (abandoned stop): what was read stands.
    } catch (NetTraceFormatException | IllegalStateException e) {
      failure = e;
    } finally {
      try {
        assembler.finish();
      } finally {
        endedNanos = System.nanoTime();
        ended.countDown();
        onStreamEnd.run();
      }
    }
  }

  /** Asks the runtime to end the session; the reader then reads the stream to its end. */
  public void stop() {
    session.stop();
  }

  /** Whether the stream has ended and every GC has been handed out. */
  public boolean hasEnded() {
    return ended.getCount() == 0;
  }

  /** Waits for the end of the stream; true if it ended. */
  public boolean awaitEnd(Duration timeout) throws InterruptedException {
    return ended.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Stops the session and waits for the stream to end; if it does not within {@code timeout}, the
   * connection is closed and what was read stands.
   */
  public void stopAndDrain(Duration timeout) throws InterruptedException {
    stop();
    if (!awaitEnd(timeout)) {
      session.close();
      awaitEnd(Duration.ofSeconds(2));
    }
  }

  /** Time from the start of the session to the end of the stream (or now). */
  public long observedNanos() {
    long end = hasEnded() ? endedNanos : System.nanoTime();
    return end - startedNanos;
  }

  /** The assembler: read its totals only after the stream ended. */
  public GcAssembler assembler() {
    return assembler;
  }

  /** Events the runtime dropped (buffer full), known once the stream ended. */
  public long droppedEvents() {
    return droppedEvents;
  }

  /** Why reading failed, or {@code null}. */
  public RuntimeException failure() {
    return failure;
  }

  @Override
  public void close() {
    session.close();
  }
}
