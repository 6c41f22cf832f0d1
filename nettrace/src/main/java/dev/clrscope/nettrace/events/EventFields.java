package dev.clrscope.nettrace.events;

import dev.clrscope.nettrace.DecodedPayload;
import dev.clrscope.nettrace.Guid;
import dev.clrscope.nettrace.NetTraceFormatException;
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
 * events decode from their field metadata, native runtime events from the runtime manifest's layout
 * ({@link RuntimeManifest}, the manifest's field names), the sample profiler's from its typed
 * record, anything else to an empty view.
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

  /** Key of the marker added when a payload cannot be decoded: the problem and its offset. */
  public static final String UNDECODABLE = "_undecodable";

  /**
   * Key of the bytes a native event carries beyond its manifest layout (a version newer than the
   * table knows), kept as raw bytes.
   */
  public static final String UNKNOWN_TAIL = "_unknownTail";

  /** Key of the whole payload as lowercase hex, added beside {@link #UNDECODABLE}. */
  public static final String PAYLOAD_HEX = "_payloadHex";

  /**
   * Decodes {@code e}'s payload into an ordered name-to-value view. Never fails for a payload that
   * does not match its description (runtimes write such payloads: .NET 10 describes a {@code
   * decimal} as 16 bytes and writes an 8-byte double): the view then holds the top-level fields
   * decoded before the problem, {@value #UNDECODABLE} ("problem at payload offset N") and {@value
   * #PAYLOAD_HEX}, so one odd event cannot stop a consumer mid-trace. Corrupt blocks are a
   * different matter and still fail {@code NetTraceReader.next()}.
   */
  public static DecodedPayload of(TraceEvent e) {
    if (!e.metadata().fields().isEmpty()) {
      return e.decodeSelfDescribedPartially();
    }
    try {
      Optional<RuntimeManifest.Event> declared = RuntimeEvents.declaration(e);
      if (declared.isPresent()) {
        return DecodedPayload.of(
            ManifestPayloadDecoder.decode(declared.get(), e.payload(), e.header().pointerSize()));
      }
      Optional<RuntimePayload> typed = RuntimeEvents.decode(e);
      if (typed.isEmpty()) {
        return DecodedPayload.EMPTY;
      }
      @SuppressWarnings("unchecked")
      LinkedHashMap<String, Object> map = (LinkedHashMap<String, Object>) toValue(typed.get());
      return DecodedPayload.of(map);
    } catch (NetTraceFormatException ex) {
      LinkedHashMap<String, Object> m = new LinkedHashMap<>();
      m.put(
          UNDECODABLE,
          ex.problem() + " at payload offset " + (ex.offset() - e.payloadStreamOffset()));
      m.put(PAYLOAD_HEX, hex(e.copyPayload()));
      return DecodedPayload.of(m);
    }
  }

  /** Bytes as lowercase hex. */
  static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder(b.length * 2);
    for (byte x : b) {
      sb.append(Character.forDigit((x >>> 4) & 0xF, 16)).append(Character.forDigit(x & 0xF, 16));
    }
    return sb.toString();
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
