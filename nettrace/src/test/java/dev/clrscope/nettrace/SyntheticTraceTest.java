package dev.clrscope.nettrace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.nettrace.events.EventFields;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimePayload;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Traces synthesised with the writer: ordering, drops, every type code, native layouts. */
class SyntheticTraceTest {
  static final TraceHeader HEADER =
      new TraceHeader(
          4,
          Instant.parse("2024-01-02T03:04:05.006Z"),
          1_000,
          1_000_000_000L,
          8,
          42,
          4,
          1_000_000,
          Map.of());

  static final EventMetadata GC_START =
      new EventMetadata(1, RuntimeEvents.RUNTIME_PROVIDER, 1, "", 1, 2, 4, 0, List.of());

  static final EventMetadata RICH =
      new EventMetadata(
          2,
          "My-Source",
          7,
          "Rich",
          0xF00L,
          1,
          5,
          11,
          List.of(
              FieldDescriptor.of("b", TypeCode.BOOLEAN32),
              FieldDescriptor.of("c", TypeCode.CHAR16),
              FieldDescriptor.of("sb", TypeCode.SBYTE),
              FieldDescriptor.of("ub", TypeCode.BYTE),
              FieldDescriptor.of("i16", TypeCode.INT16),
              FieldDescriptor.of("u16", TypeCode.UINT16),
              FieldDescriptor.of("i32", TypeCode.INT32),
              FieldDescriptor.of("u32", TypeCode.UINT32),
              FieldDescriptor.of("i64", TypeCode.INT64),
              FieldDescriptor.of("u64", TypeCode.UINT64),
              FieldDescriptor.of("f", TypeCode.SINGLE),
              FieldDescriptor.of("d", TypeCode.DOUBLE),
              FieldDescriptor.of("dec", TypeCode.DECIMAL),
              FieldDescriptor.of("t", TypeCode.DATE_TIME),
              FieldDescriptor.of("g", TypeCode.GUID),
              FieldDescriptor.of("s", TypeCode.STRING),
              FieldDescriptor.struct(
                  "pt",
                  List.of(
                      FieldDescriptor.of("x", TypeCode.INT32),
                      FieldDescriptor.of("y", TypeCode.INT32))),
              FieldDescriptor.arrayOf("nums", TypeCode.INT32),
              new FieldDescriptor(
                  "pairs",
                  TypeCode.ARRAY,
                  TypeCode.OBJECT,
                  List.of(
                      FieldDescriptor.of("k", TypeCode.STRING),
                      FieldDescriptor.of("v", TypeCode.INT64)),
                  0)));

  static byte[] richPayload() {
    ByteBuffer b = ByteBuffer.allocate(512).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(1)
        .putChar('Z')
        .put((byte) -3)
        .put((byte) 200)
        .putShort((short) -7)
        .putShort((short) 65000);
    b.putInt(-9).putInt(0xFFFFFFF0).putLong(-11).putLong(-1).putFloat(1.5f).putDouble(2.25);
    b.putInt(2 << 16).putInt(0).putInt(12345).putInt(0); // decimal 123.45
    b.putLong(116_444_736_000_000_000L + 10_000_000L); // 1970-01-01T00:00:01Z
    Guid g = Guid.parse("01020304-0506-0708-090a-0b0c0d0e0f10");
    b.putLong(g.low()).putLong(g.high());
    for (char ch : "hé".toCharArray()) {
      b.putChar(ch);
    }
    b.putChar('\0');
    b.putInt(3).putInt(4);
    b.putShort((short) 2).putInt(10).putInt(20);
    b.putShort((short) 1);
    for (char ch : "key".toCharArray()) {
      b.putChar(ch);
    }
    b.putChar('\0').putLong(99);
    byte[] out = new byte[b.position()];
    b.flip().get(out);
    return out;
  }

  static byte[] gcStartPayload(int count) {
    return ByteBuffer.allocate(26)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putInt(count)
        .putInt(2)
        .putInt(1)
        .putInt(0)
        .putShort((short) 7)
        .putLong(555)
        .array();
  }

  /** Two threads writing interleaved runs; thread 2 skips sequence number 3. */
  static byte[] synthesise() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (NetTraceWriter w = NetTraceWriter.create(out, HEADER)) {
      StackTrace s1 = StackTrace.of(0x1000, 0x2000, 0x3000);
      // Thread 1 run: sorted head at t=100, then 300, 500 unsorted.
      w.writeEvent(GC_START, 1, 11, 1, 0, 100, Guid.EMPTY, Guid.EMPTY, s1, true, gcStartPayload(1));
      w.writeEvent(
          GC_START, 2, 11, 1, 0, 300, Guid.EMPTY, Guid.EMPTY, s1, false, gcStartPayload(2));
      w.writeEvent(
          GC_START,
          3,
          11,
          1,
          0,
          500,
          Guid.EMPTY,
          Guid.EMPTY,
          StackTrace.EMPTY,
          false,
          gcStartPayload(3));
      // Thread 2 run, written later but partly older: 200, 400 (seq 1, 2, then 4: one dropped).
      w.writeEvent(
          RICH,
          1,
          22,
          2,
          1,
          200,
          Guid.parse("11111111-2222-3333-4444-555555555555"),
          Guid.EMPTY,
          StackTrace.of(0x9),
          true,
          richPayload());
      w.writeEvent(
          RICH,
          2,
          22,
          2,
          1,
          400,
          Guid.EMPTY,
          Guid.parse("aaaaaaaa-2222-3333-4444-555555555555"),
          s1,
          false,
          richPayload());
      w.writeEvent(RICH, 4, 22, 2, 1, 450, Guid.EMPTY, Guid.EMPTY, s1, false, richPayload());
      w.writeSequencePoint(600);
      w.writeEvent(
          GC_START,
          4,
          11,
          1,
          3,
          700,
          Guid.EMPTY,
          Guid.EMPTY,
          StackTrace.of(0x7),
          true,
          gcStartPayload(4));
    }
    return out.toByteArray();
  }

  static List<TraceEvent> readAll(byte[] data) {
    List<TraceEvent> events = new ArrayList<>();
    try (NetTraceReader r = NetTraceReader.open(new ByteArrayInputStream(data))) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        events.add(e);
      }
    }
    return events;
  }

  @Test
  void mergesThreadsByTimestampAndCountsDrops() {
    byte[] data = synthesise();
    try (NetTraceReader r = NetTraceReader.open(new ByteArrayInputStream(data))) {
      List<Long> ts = new ArrayList<>();
      TraceEvent e;
      while ((e = r.next()) != null) {
        ts.add(e.timestamp());
      }
      assertThat(ts).containsExactly(100L, 200L, 300L, 400L, 450L, 500L, 700L);
      assertThat(r.droppedEvents()).isEqualTo(1);
      assertThat(r.sequencePoints()).isEqualTo(2);
      assertThat(r.deliveredEvents()).isEqualTo(7);
    }
  }

  @Test
  void decodesEveryV4TypeCodeByName() {
    TraceEvent rich = readAll(synthesise()).get(1);
    assertThat(rich.metadata()).isEqualTo(RICH);
    assertThat(rich.activityId()).isEqualTo(Guid.parse("11111111-2222-3333-4444-555555555555"));
    assertThat(rich.stack().frames()).containsExactly(0x9L);
    DecodedPayload p = rich.decodeSelfDescribed();
    assertThat(p.get("b")).isEqualTo(true);
    assertThat(p.get("c")).isEqualTo('Z');
    assertThat(p.get("sb")).isEqualTo((byte) -3);
    assertThat(p.get("ub")).isEqualTo(200);
    assertThat(p.get("i16")).isEqualTo((short) -7);
    assertThat(p.get("u16")).isEqualTo(65000);
    assertThat(p.getLong("i32")).isEqualTo(-9);
    assertThat(p.getLong("u32")).isEqualTo(0xFFFFFFF0L);
    assertThat(p.getLong("i64")).isEqualTo(-11);
    assertThat(p.getLong("u64")).isEqualTo(-1);
    assertThat(p.get("f")).isEqualTo(1.5f);
    assertThat(p.get("d")).isEqualTo(2.25);
    assertThat(p.get("dec").toString()).isEqualTo("123.45");
    assertThat(p.get("t")).isEqualTo(Instant.parse("1970-01-01T00:00:01Z"));
    assertThat(p.get("g").toString()).isEqualTo("01020304-0506-0708-090a-0b0c0d0e0f10");
    assertThat(p.getString("s")).isEqualTo("hé");
    assertThat(p.get("pt")).isEqualTo(Map.of("x", 3, "y", 4));
    assertThat(p.get("nums")).isEqualTo(List.of(10, 20));
    assertThat(p.get("pairs")).isEqualTo(List.of(Map.of("k", "key", "v", 99L)));
  }

  @Test
  void decodesNativeGcStartFromLayout() {
    TraceEvent gc = readAll(synthesise()).get(0);
    assertThat(RuntimeEvents.decode(gc)).contains(new RuntimePayload.GcStart(1, 2, 1, 0, 7, 555));
    assertThat(RuntimeEvents.displayName(gc)).isEqualTo("GC/Start");
    assertThat(EventFields.of(gc).asMap()).containsEntry("ClientSequenceNumber", 555L);
    assertThat(gc.stack().depth()).isEqualTo(3);
    TraceEvent afterSequencePoint = readAll(synthesise()).get(6);
    assertThat(afterSequencePoint.stack().frames()).containsExactly(0x7L);
    assertThat(afterSequencePoint.processorNumber()).isEqualTo(3);
  }

  @Test
  void olderEventVersionLeavesAppendedFieldsZero() {
    byte[] v1 =
        ByteBuffer.allocate(18)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putInt(5)
            .putInt(0)
            .putInt(3)
            .putInt(1)
            .putShort((short) 2)
            .array();
    EventMetadata gcV1 =
        new EventMetadata(1, RuntimeEvents.RUNTIME_PROVIDER, 1, "", 1, 1, 4, 0, List.of());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (NetTraceWriter w = NetTraceWriter.create(out, HEADER)) {
      w.writeEvent(gcV1, 1, 1, 1, 0, 10, Guid.EMPTY, Guid.EMPTY, StackTrace.EMPTY, true, v1);
    }
    TraceEvent e = readAll(out.toByteArray()).get(0);
    assertThat(RuntimeEvents.decode(e)).contains(new RuntimePayload.GcStart(5, 0, 3, 1, 2, 0));
  }
}
