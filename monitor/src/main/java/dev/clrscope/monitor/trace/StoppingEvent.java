package dev.clrscope.monitor.trace;

import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.monitor.session.StopSwitch;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.EventFields;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimeManifest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The event that ends a trace ({@code --stopping-event-*}): a provider, optionally an event name,
 * optionally payload fields that must all have the given values. As in dotnet-trace, field names
 * are the manifest's or the EventSource's ({@code Reason}, {@code ExceptionType}; case does not
 * matter), and a value is text, a number (decimal or 0x hex), or for a runtime event's enumerated
 * field the name TraceEvent prints ({@code Reason:AllocSmall}). For the runtime's own providers the
 * event and its fields are checked against the runtime's manifest when the options are read.
 *
 * @param provider the provider's name (case-insensitive)
 * @param eventName the event's name as {@link EventNames#matches} understands it, or null for any
 * @param payload field name to required value
 */
public record StoppingEvent(String provider, String eventName, Map<String, String> payload) {

  /** Copies the map. */
  public StoppingEvent {
    payload = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(payload));
  }

  /**
   * Builds one from the three options, as dotnet-trace does: an event name needs a provider, a
   * payload filter needs an event name; the filter is {@code name:value,name:value}.
   *
   * @return null when no option was given
   * @throws IllegalArgumentException for a usage error
   */
  public static StoppingEvent of(String provider, String eventName, String payloadFilter) {
    if (provider == null) {
      if (eventName != null || payloadFilter != null) {
        throw new IllegalArgumentException(
            "--stopping-event-event-name and --stopping-event-payload-filter need"
                + " --stopping-event-provider-name");
      }
      return null;
    }
    if (payloadFilter != null && eventName == null) {
      throw new IllegalArgumentException(
          "--stopping-event-payload-filter needs --stopping-event-event-name");
    }
    Map<String, String> filter = new LinkedHashMap<>();
    if (payloadFilter != null) {
      for (String pair : payloadFilter.split(",", -1)) {
        if (pair.isBlank()) {
          continue;
        }
        int colon = pair.indexOf(':');
        if (colon <= 0) {
          throw new IllegalArgumentException(
              "--stopping-event-payload-filter takes name:value pairs separated by commas, got '"
                  + pair
                  + "'");
        }
        filter.put(pair.substring(0, colon).strip(), pair.substring(colon + 1).strip());
      }
    }
    StoppingEvent stopping = new StoppingEvent(provider.strip(), eventName, filter);
    stopping.checkAgainstManifest();
    return stopping;
  }

  /**
   * For a provider the runtime's manifest declares: the event must exist, each filter field must be
   * one of its fields, each non-numeric value of an enumerated field one of its names.
   */
  private void checkAgainstManifest() {
    String declared = RuntimeManifest.providerNamed(provider).orElse(null);
    if (declared == null || eventName == null) {
      return;
    }
    List<RuntimeManifest.Event> events =
        RuntimeManifest.events(declared).stream()
            .filter(d -> EventNames.matches(d, eventName))
            .toList();
    if (events.isEmpty()) {
      throw new IllegalArgumentException(
          declared
              + " has no event '"
              + eventName
              + "': name it as TraceEvent does (GC/Start), by its manifest symbol (GCStart) or by"
              + " its id");
    }
    for (Map.Entry<String, String> want : payload.entrySet()) {
      List<RuntimeManifest.Field> fields = new ArrayList<>();
      for (RuntimeManifest.Event d : events) {
        d.fields().stream()
            .filter(f -> f.name().equalsIgnoreCase(want.getKey()))
            .forEach(fields::add);
      }
      if (fields.isEmpty()) {
        Set<String> names = new LinkedHashSet<>();
        events.forEach(d -> d.fields().forEach(f -> names.add(f.name())));
        throw new IllegalArgumentException(
            events.get(0).name()
                + " has no field '"
                + want.getKey()
                + "'"
                + (names.isEmpty()
                    ? " (it has no payload)"
                    : ": its fields are " + String.join(", ", names)));
      }
      RuntimeManifest.Field f = fields.get(fields.size() - 1);
      if (number(want.getValue()) == null
          && f.valueMap().isPresent()
          && f.valueMap().get().valueOf(want.getValue()).isEmpty()) {
        throw new IllegalArgumentException(
            "'"
                + want.getValue()
                + "' is not a value of "
                + f.name()
                + ": give a number or one of "
                + String.join(", ", f.valueMap().get().names().values()));
      }
    }
  }

  /** A decimal or {@code 0x} hexadecimal integer, or null. */
  private static Long number(String text) {
    String t = text.strip();
    try {
      if (t.startsWith("0x") || t.startsWith("0X")) {
        return Long.parseUnsignedLong(t.substring(2), 16);
      }
      return t.matches("-?\\d+") ? Long.parseLong(t) : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Whether {@code e} is the stopping event. */
  public boolean matches(TraceEvent e) {
    if (!e.providerName().equalsIgnoreCase(provider)) {
      return false;
    }
    if (eventName != null && !EventNames.matches(e, eventName)) {
      return false;
    }
    if (payload.isEmpty()) {
      return true;
    }
    Map<String, Object> fields;
    try {
      fields = EventFields.of(e).asMap();
    } catch (RuntimeException ex) {
      // An undecodable payload cannot match a filter on its fields.
      return false;
    }
    RuntimeManifest.Event declared = RuntimeEvents.declaration(e).orElse(null);
    for (Map.Entry<String, String> want : payload.entrySet()) {
      String key = null;
      for (String k : fields.keySet()) {
        if (k.equalsIgnoreCase(want.getKey())) {
          key = k;
          break;
        }
      }
      if (key == null || !sameValue(fields.get(key), want.getValue(), valueMap(declared, key))) {
        return false;
      }
    }
    return true;
  }

  private static RuntimeManifest.ValueMap valueMap(RuntimeManifest.Event declared, String field) {
    if (declared == null) {
      return null;
    }
    for (RuntimeManifest.Field f : declared.fields()) {
      if (f.name().equals(field)) {
        return f.map();
      }
    }
    return null;
  }

  /** A decoded value against the text the user gave: as a number, a value name, or text. */
  static boolean sameValue(Object have, String want, RuntimeManifest.ValueMap map) {
    if (have instanceof Number n && !(have instanceof Double) && !(have instanceof Float)) {
      Long w = number(want);
      if (w == null && map != null) {
        w = map.valueOf(want).orElse(null);
      }
      if (w != null) {
        return n.longValue() == w;
      }
    } else if (have instanceof Number n) {
      try {
        return n.doubleValue() == Double.parseDouble(want.strip());
      } catch (NumberFormatException e) {
        // Compared as text below.
      }
    } else if (have instanceof Boolean b) {
      return String.valueOf(b).equalsIgnoreCase(want.strip())
          || (b ? "1" : "0").equals(want.strip());
    }
    return String.valueOf(have).equals(want);
  }

  /**
   * A consumer for a live session that asks {@code stop} to stop, once, when it sees this event.
   */
  public EventConsumer consumer(StopSwitch stop) {
    return new EventConsumer() {
      private boolean seen;

      @Override
      public void accept(TraceEvent event) {
        if (!seen && matches(event)) {
          seen = true;
          stop.request("stopping event " + describe() + " seen");
        }
      }
    };
  }

  /** For messages. */
  public String describe() {
    return provider
        + (eventName == null ? "" : "/" + eventName)
        + (payload.isEmpty() ? "" : " " + payload);
  }
}
