package dev.clrscope.nettrace.events;

import dev.clrscope.nettrace.DecodedPayload;
import dev.clrscope.nettrace.Guid;
import dev.clrscope.nettrace.TraceEvent;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;

/**
 * A generic name-to-value view of any event's payload, for printing an event as JSON: EventSource
 * events decode from their field metadata, known native events from their typed record (component
 * names, in order), anything else to an empty view.
 */
public final class EventFields {
  private EventFields() {}

  /** Decodes {@code e}'s payload into an ordered name-to-value view. */
  public static DecodedPayload of(TraceEvent e) {
    if (!e.metadata().fields().isEmpty()) {
      return e.decodeSelfDescribed();
    }
    Optional<RuntimePayload> typed = RuntimeEvents.decode(e);
    if (typed.isEmpty()) {
      return DecodedPayload.EMPTY;
    }
    @SuppressWarnings("unchecked")
    LinkedHashMap<String, Object> map = (LinkedHashMap<String, Object>) toValue(typed.get());
    return DecodedPayload.of(map);
  }

  /** Records become ordered maps (recursively), lists are converted element-wise. */
  static Object toValue(Object o) {
    if (o instanceof Guid) {
      return o;
    }
    if (o instanceof Record r) {
      LinkedHashMap<String, Object> m = new LinkedHashMap<>();
      for (RecordComponent c : r.getClass().getRecordComponents()) {
        try {
          m.put(c.getName(), toValue(c.getAccessor().invoke(r)));
        } catch (IllegalAccessException | InvocationTargetException ex) {
          throw new IllegalStateException("cannot read " + c, ex);
        }
      }
      return m;
    }
    if (o instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object x : list) {
        out.add(toValue(x));
      }
      return out;
    }
    return o;
  }
}
