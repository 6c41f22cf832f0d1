package dev.clrscope.monitor.counters;

import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.nettrace.TraceEvent;
import java.util.Optional;
import java.util.function.Consumer;

/** Decodes a counters session's events and hands each update, on the reader thread, to a sink. */
public final class CounterFeed implements EventConsumer {
  private final CounterEventDecoder decoder;
  private final Consumer<CounterUpdate> sink;

  /** A feed for the session of {@code plan}. */
  public CounterFeed(CounterPlan plan, Consumer<CounterUpdate> sink) {
    this.decoder = new CounterEventDecoder(plan.sessionId());
    this.sink = sink;
  }

  @Override
  public void accept(TraceEvent event) {
    Optional<CounterUpdate> u = decoder.decode(event);
    if (u.isPresent()) {
      sink.accept(u.get());
    }
  }
}
