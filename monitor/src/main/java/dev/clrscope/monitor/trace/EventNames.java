package dev.clrscope.monitor.trace;

import dev.clrscope.nettrace.EventMetadata;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimeManifest;

/**
 * How the trace commands name events and match names typed by users: TraceEvent's "Task/Opcode"
 * names for native runtime events ({@code GC/Start}), the metadata's name for EventSource events,
 * and the runtime manifest's symbols ({@code GCStart}, {@code GCStart_V2}, {@code ExceptionThrown})
 * as aliases.
 */
public final class EventNames {
  private EventNames() {}

  /** The name to show: TraceEvent's for known native events, else the metadata's, else "EventN". */
  public static String displayName(TraceEvent e) {
    return displayName(e.metadata());
  }

  /** {@link #displayName(TraceEvent)} of the events of metadata {@code m}. */
  public static String displayName(EventMetadata m) {
    String name = RuntimeEvents.displayName(m);
    return name == null || name.isEmpty() ? "Event" + m.eventId() : name;
  }

  /**
   * Whether {@code query} names this event: its id (a number), its display name, its metadata name,
   * its runtime manifest symbol with or without the version suffix, or the display name without the
   * slash; case-insensitive.
   */
  public static boolean matches(TraceEvent e, String query) {
    String q = query.strip();
    if (q.matches("\\d+")) {
      // Event ids are 16 bits: a longer number names no event.
      return q.length() <= 5 && Integer.parseInt(q) == e.eventId();
    }
    String display = displayName(e);
    if (display.equalsIgnoreCase(q)
        || display.replace("/", "").equalsIgnoreCase(q)
        || e.eventName().equalsIgnoreCase(q)) {
      return true;
    }
    return RuntimeEvents.declaration(e)
        .map(d -> d.baseSymbol().equalsIgnoreCase(q) || d.symbol().equalsIgnoreCase(q))
        .orElse(false);
  }

  /** Whether {@code query} names this declared native event, in any of the ways above. */
  public static boolean matches(RuntimeManifest.Event d, String query) {
    String q = query.strip();
    if (q.matches("\\d+")) {
      return q.length() <= 5 && Integer.parseInt(q) == d.id();
    }
    return d.name().equalsIgnoreCase(q)
        || d.name().replace("/", "").equalsIgnoreCase(q)
        || d.symbol().equalsIgnoreCase(q)
        || d.baseSymbol().equalsIgnoreCase(q);
  }
}
