package dev.clrscope.nettrace.events;

import dev.clrscope.nettrace.DecodedPayload;
import dev.clrscope.nettrace.Guid;
import dev.clrscope.nettrace.TraceEvent;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
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

  /** A record component's name and accessor, typed {@code (Object) -> Object}. */
  private record Component(String name, MethodHandle accessor) {}

  /**
   * Record components per class, looked up once: {@code getRecordComponents()} re-reads the class
   * file attributes and copies on every call, which made this view about 10 times slower than the
   * typed decoding it wraps.
   */
  private static final ClassValue<Component[]> COMPONENTS =
      new ClassValue<>() {
        @Override
        protected Component[] computeValue(Class<?> type) {
          RecordComponent[] rc = type.getRecordComponents();
          Component[] out = new Component[rc.length];
          MethodHandles.Lookup lookup = MethodHandles.lookup();
          for (int i = 0; i < rc.length; i++) {
            try {
              out[i] =
                  new Component(
                      rc[i].getName(),
                      lookup
                          .unreflect(rc[i].getAccessor())
                          .asType(MethodType.methodType(Object.class, Object.class)));
            } catch (IllegalAccessException ex) {
              throw new IllegalStateException("cannot read " + rc[i], ex);
            }
          }
          return out;
        }
      };

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

  private static Object read(Component c, Record r) {
    try {
      return (Object) c.accessor().invokeExact((Object) r);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("cannot read " + c.name(), t);
    }
  }

  /** Records become ordered maps (recursively), lists are converted element-wise. */
  static Object toValue(Object o) {
    if (o instanceof Guid) {
      return o;
    }
    if (o instanceof Record r) {
      Component[] components = COMPONENTS.get(r.getClass());
      LinkedHashMap<String, Object> m = new LinkedHashMap<>(components.length * 4 / 3 + 1);
      for (Component c : components) {
        m.put(c.name(), toValue(read(c, r)));
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
