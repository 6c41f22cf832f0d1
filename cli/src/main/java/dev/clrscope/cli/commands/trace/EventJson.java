package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.render.HexAddresses;
import dev.clrscope.cli.render.JsonText;
import dev.clrscope.monitor.trace.EventNames;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.EventFields;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One decoded event as a JSON object, the line format of {@code trace events}. */
final class EventJson {
  private EventJson() {}

  /** The event as an ordered map of JSON-ready values. */
  static Map<String, Object> of(TraceEvent e) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("time", e.timeUtc().toString());
    o.put("relativeMs", e.relativeMillis());
    o.put("provider", e.providerName());
    o.put("eventId", e.eventId());
    o.put("version", e.version());
    o.put("name", EventNames.displayName(e));
    o.put("threadId", e.threadId());
    o.put("processor", e.processorNumber());
    if (!e.activityId().isEmpty()) {
      o.put("activityId", e.activityId().toString());
    }
    if (!e.relatedActivityId().isEmpty()) {
      o.put("relatedActivityId", e.relatedActivityId().toString());
    }
    if (e.stack().depth() > 0) {
      long[] frames = new long[e.stack().depth()];
      for (int i = 0; i < frames.length; i++) {
        frames[i] = e.stack().frame(i);
      }
      o.put("stack", new HexAddresses(frames));
    }
    Object payload;
    try {
      payload = plain(EventFields.of(e).asMap());
    } catch (RuntimeException ex) {
      // Say why rather than drop the event: the header fields are still right.
      o.put("payloadError", ex.getMessage());
      payload = Map.of();
    }
    o.put("payload", payload);
    return o;
  }

  /** The JSON text of a decoded value. */
  static String valueJson(Object value) {
    return JsonText.of(plain(value));
  }

  /** Decoded values as the plain types {@link JsonText} writes. */
  static Object plain(Object v) {
    if (v == null || v instanceof String || v instanceof Boolean) {
      return v;
    }
    if (v instanceof Number n) {
      return n;
    }
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        out.put(String.valueOf(e.getKey()), plain(e.getValue()));
      }
      return out;
    }
    if (v instanceof Collection<?> c) {
      List<Object> out = new ArrayList<>(c.size());
      for (Object x : c) {
        out.add(plain(x));
      }
      return out;
    }
    if (v instanceof byte[] bytes) {
      StringBuilder sb = new StringBuilder(bytes.length * 2);
      for (byte b : bytes) {
        sb.append(String.format("%02x", b & 0xFF));
      }
      return sb.toString();
    }
    return v.toString();
  }
}
