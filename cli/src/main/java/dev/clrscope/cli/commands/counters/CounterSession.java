package dev.clrscope.cli.commands.counters;

import dev.clrscope.ipc.client.DiagnosticsClient;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSession;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.monitor.counters.CounterEventDecoder;
import dev.clrscope.monitor.counters.CounterPlan;
import dev.clrscope.monitor.counters.CounterUpdate;
import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One EventPipe session for a {@link CounterPlan}: a reader thread parses the live stream, decodes
 * counter events and hands each update, on that thread, to a consumer.
 *
 * <p>The stream is read with live ordering ({@link NetTraceReader#openLive}): each update is handed
 * out as soon as the runtime's flush that carries it has arrived (about 0.1 s), instead of when the
 * next interval's events prove nothing older is still to come (a whole refresh interval later). The
 * price, updates of different providers slightly out of timestamp order, does not matter here: each
 * time series comes from one thread, whose events keep their order, and carries its own timestamp.
 */
final class CounterSession implements AutoCloseable {
  private final EventPipeSession session;
  private final Thread reader;
  private final CountDownLatch ended = new CountDownLatch(1);
  private volatile RuntimeException failure;
  private volatile long droppedEvents;

  private CounterSession(
      EventPipeSession session, CounterPlan plan, Consumer<CounterUpdate> sink, Runnable onEnd) {
    this.session = session;
    CounterEventDecoder decoder = new CounterEventDecoder(plan.sessionId());
    this.reader = new Thread(() -> read(decoder, sink, onEnd), "clrscope-counters-reader");
    reader.setDaemon(true);
  }

  /** The EventPipe session a plan asks for: no rundown, no stacks, a small buffer. */
  static EventPipeSessionConfig config(CounterPlan plan) {
    List<EventPipeProvider> providers = new ArrayList<>();
    for (CounterPlan.ProviderSetting p : plan.providers()) {
      providers.add(
          new EventPipeProvider(p.name(), p.keywords(), p.level(), p.arguments(), List.of()));
    }
    return new EventPipeSessionConfig(4, providers, 0, false, false);
  }

  /**
   * Starts the session and its reader.
   *
   * @param sink called on the reader thread for each decoded update
   * @param onEnd called on the reader thread when the stream ends (stopped or the target exited)
   */
  static CounterSession start(
      DiagnosticsClient client, CounterPlan plan, Consumer<CounterUpdate> sink, Runnable onEnd) {
    EventPipeSession s = client.startEventPipeSession(config(plan));
    CounterSession c = new CounterSession(s, plan, sink, onEnd);
    c.reader.start();
    return c;
  }

  private void read(CounterEventDecoder decoder, Consumer<CounterUpdate> sink, Runnable onEnd) {
    try (NetTraceReader r = NetTraceReader.openLive(session.stream(), true)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        Optional<CounterUpdate> u = decoder.decode(e);
        if (u.isPresent()) {
          sink.accept(u.get());
        }
      }
      droppedEvents = r.droppedEvents();
    } catch (UncheckedIOException e) {
      // The connection was closed under us (an abandoned stop): what was read stands.
    } catch (NetTraceFormatException | IllegalStateException | IllegalArgumentException e) {
      failure = e;
    } finally {
      ended.countDown();
      onEnd.run();
    }
  }

  /** Whether the stream has ended and every update has been handed out. */
  boolean hasEnded() {
    return ended.getCount() == 0;
  }

  /**
   * Stops the session and waits for the stream to end; if it does not within {@code timeout}, the
   * connection is closed and what was read stands.
   */
  void stopAndDrain(Duration timeout) throws InterruptedException {
    session.stop();
    if (!ended.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      session.close();
      ended.await(2, TimeUnit.SECONDS);
    }
  }

  /** Why reading failed, or {@code null}. */
  RuntimeException failure() {
    return failure;
  }

  /** Events the runtime dropped (its buffer was full), known once the stream ended. */
  long droppedEvents() {
    return droppedEvents;
  }

  @Override
  public void close() {
    session.close();
  }
}
