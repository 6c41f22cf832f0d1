package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.render.JsonLineBuffer;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.monitor.trace.EventNames;
import dev.clrscope.nettrace.EventMetadata;
import dev.clrscope.nettrace.StackTrace;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.EventFields;
import java.time.Instant;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * {@code trace events}' JSON Lines written straight from each event into UTF-8 bytes: the same text
 * as {@link EventsCommand#SCHEMA} writes for {@link EventJson#of} (a test holds them equal),
 * without the map, the String and the encoder pass per event, which were most of the command's time
 * on a trace of millions of events. The JSON Lines renderer writes the lines.
 */
final class EventJsonLines implements Renderer.JsonLineWriter<EventsCommand.Decoded> {
  private final JsonLineBuffer line = new JsonLineBuffer();
  private long[] frames = new long[64];

  /**
   * The JSON text of recent stacks: a trace's events repeat a few thousand stacks, so each is
   * rendered once rather than for every event. A slot per hash of the frames, the newest stack in
   * it (its frames kept to tell it from another with the same hash).
   */
  private final long[][] cachedFrames = new long[STACK_SLOTS][];

  private final byte[][] cachedText = new byte[STACK_SLOTS][];
  private final JsonLineBuffer scratch = new JsonLineBuffer();
  private static final int STACK_SLOTS = 1 << 14;

  /** The text before the fraction of the last second seen: {@code 2026-11-22T05:16:44}. */
  private long lastSecond = Long.MIN_VALUE;

  private String secondText;

  @Override
  public void append(EventsCommand.Decoded e, JsonLineBuffer b) {
    append(e.event(), b);
  }

  /** The event's JSON object (without the line's end), for tests. */
  String text(TraceEvent e) {
    return append(e, line.clear()).toString();
  }

  private JsonLineBuffer append(TraceEvent e, JsonLineBuffer b) {
    b.mark('{').key("time");
    time(b, e.timeUtc());
    double relative = e.relativeMillis();
    b.mark(',')
        .key("relativeMs")
        .ascii(Double.isFinite(relative) ? Double.toString(relative) : "null");
    b.raw(describing(e));
    b.mark(',').key("threadId").number(e.threadId());
    b.mark(',').key("processor").number(e.processorNumber());
    if (!e.activityId().isEmpty()) {
      b.mark(',').key("activityId").string(e.activityId().toString());
    }
    if (!e.relatedActivityId().isEmpty()) {
      b.mark(',').key("relatedActivityId").string(e.relatedActivityId().toString());
    }
    StackTrace stack = e.stack();
    if (stack.depth() > 0) {
      b.mark(',').key("stack").raw(stackText(stack));
    }
    Map<String, Object> payload;
    try {
      payload = EventFields.of(e).asMap();
    } catch (RuntimeException ex) {
      // Say why rather than drop the event: the header fields are still right.
      b.mark(',').key("payloadError").string(String.valueOf(ex.getMessage()));
      payload = Map.of();
    }
    return b.mark(',').key("payload").value(payload).mark('}');
  }

  /**
   * The members every event of one metadata shares, rendered once per metadata: {@code
   * ,"provider":…,"eventId":…,"version":…,"name":…}.
   */
  private final Map<EventMetadata, byte[]> described = new IdentityHashMap<>();

  private EventMetadata lastMetadata;
  private byte[] lastDescribed;

  private byte[] describing(TraceEvent e) {
    EventMetadata m = e.metadata();
    if (m == lastMetadata && m != null) {
      return lastDescribed;
    }
    byte[] text = m == null ? null : described.get(m);
    if (text == null) {
      text =
          scratch
              .clear()
              .mark(',')
              .key("provider")
              .string(e.providerName())
              .mark(',')
              .key("eventId")
              .number(e.eventId())
              .mark(',')
              .key("version")
              .number(e.version())
              .mark(',')
              .key("name")
              .string(EventNames.displayName(e))
              .toBytes();
      if (m != null) {
        described.put(m, text);
      }
    }
    lastMetadata = m;
    lastDescribed = text;
    return text;
  }

  private byte[] stackText(StackTrace stack) {
    int depth = stack.depth();
    if (frames.length < depth) {
      frames = new long[Math.max(depth, frames.length * 2)];
    }
    long hash = depth;
    for (int i = 0; i < depth; i++) {
      long f = stack.frame(i);
      frames[i] = f;
      hash = hash * 0x9E3779B97F4A7C15L + f;
    }
    int slot = (int) (hash ^ hash >>> 29) & (STACK_SLOTS - 1);
    long[] cached = cachedFrames[slot];
    if (cached != null
        && cached.length == depth
        && Arrays.equals(cached, 0, depth, frames, 0, depth)) {
      return cachedText[slot];
    }
    byte[] text = scratch.clear().hexAddresses(frames, depth).toBytes();
    cachedFrames[slot] = Arrays.copyOf(frames, depth);
    cachedText[slot] = text;
    return text;
  }

  /** {@link Instant#toString()}: the date and time, then 0, 3, 6 or 9 digits of fraction. */
  private void time(JsonLineBuffer b, Instant t) {
    long second = t.getEpochSecond();
    if (second != lastSecond) {
      String whole = Instant.ofEpochSecond(second).toString();
      secondText = whole.substring(0, whole.length() - 1);
      lastSecond = second;
    }
    b.mark('"').ascii(secondText);
    int nanos = t.getNano();
    if (nanos != 0) {
      int digits;
      int value;
      if (nanos % 1_000_000 == 0) {
        digits = 3;
        value = nanos / 1_000_000;
      } else if (nanos % 1000 == 0) {
        digits = 6;
        value = nanos / 1000;
      } else {
        digits = 9;
        value = nanos;
      }
      String text = Integer.toString(value);
      b.mark('.');
      for (int k = text.length(); k < digits; k++) {
        b.mark('0');
      }
      b.ascii(text);
    }
    b.mark('Z').mark('"');
  }
}
