package dev.clrscope.monitor.trace;

import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.util.Locale;
import java.util.Map;

/**
 * How the trace commands name events and match names typed by users: TraceEvent's "Task/Opcode"
 * names for native runtime events ({@code GC/Start}), the metadata's name for EventSource events,
 * and the runtime manifest's event names ({@code GCStart}, {@code ExceptionThrown}) as aliases.
 */
public final class EventNames {
  /** Manifest names of runtime provider events, by event id. */
  private static final Map<Integer, String> RUNTIME_MANIFEST_NAMES =
      Map.ofEntries(
          Map.entry(1, "GCStart"),
          Map.entry(2, "GCEnd"),
          Map.entry(3, "GCRestartEEEnd"),
          Map.entry(4, "GCHeapStats"),
          Map.entry(7, "GCRestartEEBegin"),
          Map.entry(8, "GCSuspendEEEnd"),
          Map.entry(9, "GCSuspendEEBegin"),
          Map.entry(10, "GCAllocationTick"),
          Map.entry(35, "GCTriggered"),
          Map.entry(80, "ExceptionThrown"),
          Map.entry(81, "ContentionStart"),
          Map.entry(91, "ContentionStop"),
          Map.entry(143, "MethodLoadVerbose"),
          Map.entry(152, "ModuleLoad"),
          Map.entry(154, "AssemblyLoad"),
          Map.entry(187, "RuntimeInformationStart"));

  private EventNames() {}

  /** The name to show: TraceEvent's for known native events, else the metadata's, else "EventN". */
  public static String displayName(TraceEvent e) {
    String name = RuntimeEvents.displayName(e);
    return name == null || name.isEmpty() ? "Event" + e.eventId() : name;
  }

  /**
   * Whether {@code query} names this event: its id (a number), its display name, its metadata name,
   * its runtime manifest name, or the display name without the slash; case-insensitive.
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
    if (RuntimeEvents.RUNTIME_PROVIDER.equals(e.providerName())) {
      String manifest = RUNTIME_MANIFEST_NAMES.get(e.eventId());
      return manifest != null
          && manifest.toLowerCase(Locale.ROOT).equals(q.toLowerCase(Locale.ROOT));
    }
    return false;
  }
}
