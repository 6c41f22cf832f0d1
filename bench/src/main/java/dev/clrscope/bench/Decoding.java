package dev.clrscope.bench;

import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.EventFields;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.nio.file.Path;

/** The measured passes over a trace; each returns a checksum so nothing is optimised away. */
public enum Decoding {
  /** Event headers only: metadata, time, thread, stack; the payload is not touched. */
  HEADERS,
  /** Typed: {@code RuntimeEvents.decode} for native events, {@code decodeSelfDescribed} else. */
  TYPED,
  /** The generic view {@code EventFields.of} for every event. */
  FIELDS;

  /** Result of one pass. */
  public record Pass(long events, long checksum) {}

  /** Reads the whole file once. */
  public Pass run(Path file) {
    long events = 0;
    long sum = 0;
    try (NetTraceReader r = NetTraceReader.open(file)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        events++;
        sum += e.timestamp() + e.threadId() + e.stack().depth() + e.metadata().eventId();
        switch (this) {
          case HEADERS:
            break;
          case TYPED:
            if (e.metadata().fields().isEmpty()) {
              sum += RuntimeEvents.decode(e).isPresent() ? 1 : 0;
            } else {
              sum += e.decodeSelfDescribed().size();
            }
            break;
          case FIELDS:
            sum += EventFields.of(e).size();
            break;
        }
      }
    }
    return new Pass(events, sum);
  }
}
