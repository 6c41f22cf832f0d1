package dev.clrscope.monitor.trace;

import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.monitor.session.StopSwitch;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.EventFields;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The event that ends a trace ({@code --stopping-event-*}): a provider, optionally an event name,
 * optionally payload fields that must all have the given values (compared as text).
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
    return new StoppingEvent(provider.strip(), eventName, filter);
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
    for (Map.Entry<String, String> want : payload.entrySet()) {
      Object have = fields.get(want.getKey());
      if (have == null || !String.valueOf(have).equals(want.getValue())) {
        return false;
      }
    }
    return true;
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
