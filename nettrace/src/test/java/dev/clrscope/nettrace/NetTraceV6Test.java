package dev.clrscope.nettrace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.clrscope.nettrace.events.EventFields;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimePayload;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * NetTrace V6 through {@link NetTraceV6Writer} and back: every block kind (trace key/values,
 * metadata with every optional item, thread, remove-thread, label list with every label kind,
 * stack, sequence point with both flush flags, event with compressed and uncompressed headers, end
 * of stream) and every type code; truncation and corruption; V4 traces converted to V6.
 */
class NetTraceV6Test {
  static final TraceHeader HEADER =
      new TraceHeader(
          6,
          Instant.parse("2025-03-04T05:06:07.008Z"),
          5_000,
          1_000_000_000L,
          8,
          4242,
          16,
          1000,
          Map.of(
              "HardwareThreadCount", "16",
              "ProcessId", "4242",
              "ExpectedCPUSamplingRate", "1000",
              "MachineName", "build-01"));

  static final Guid PROVIDER_GUID = Guid.parse("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0");

  static final FieldDescriptor POINT =
      FieldDescriptor.struct(
          "pt",
          List.of(
              FieldDescriptor.of("x", TypeCode.INT32), FieldDescriptor.of("y", TypeCode.UINT16)));

  /** One field of every type code, in code order, each container with each kind of element. */
  static final EventMetadata ALL_TYPES =
      new EventMetadata(
          7,
          "My-V6-Source",
          3,
          "AllTypes",
          0x8000_0000_0000_00F0L,
          2,
          4,
          9,
          List.of(
              POINT,
              FieldDescriptor.of("b32", TypeCode.BOOLEAN32),
              FieldDescriptor.of("c16", TypeCode.CHAR16),
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
              FieldDescriptor.arrayOf("nums", TypeCode.INT32),
              new FieldDescriptor("pts", TypeCode.ARRAY, TypeCode.OBJECT, POINT.fields(), 0),
              FieldDescriptor.of("vi", TypeCode.VAR_INT),
              FieldDescriptor.of("vu", TypeCode.VAR_UINT),
              new FieldDescriptor(
                  "fixed", TypeCode.FIXED_LENGTH_ARRAY, TypeCode.INT16, List.of(), 3),
              new FieldDescriptor(
                  "fixedPts", TypeCode.FIXED_LENGTH_ARRAY, TypeCode.OBJECT, POINT.fields(), 2),
              FieldDescriptor.of("u8c", TypeCode.UTF8_CHAR),
              new FieldDescriptor("rel", TypeCode.REL_LOC, TypeCode.UINT16, List.of(), 0),
              new FieldDescriptor("loc", TypeCode.DATA_LOC, TypeCode.UTF8_CHAR, List.of(), 0),
              new FieldDescriptor("locPts", TypeCode.DATA_LOC, TypeCode.OBJECT, POINT.fields(), 0),
              FieldDescriptor.of("b8", TypeCode.BOOLEAN8)),
          new MetadataAnnotations(
              "x={x} s={s}",
              "every field type",
              linked("owner", "clrscope", "area", "tests"),
              PROVIDER_GUID));

  static final EventMetadata GC_START =
      new EventMetadata(1, RuntimeEvents.RUNTIME_PROVIDER, 1, "", 1, 2, 4, 0, List.of());

  /** Every label kind; the overrides change ALL_TYPES' opcode, keywords, level and version. */
  static final LabelList FULL_LABELS =
      new LabelList(
          Guid.parse("11111111-2222-3333-4444-555555555555"),
          Guid.parse("66666666-7777-8888-9999-aaaaaaaaaaaa"),
          "4bf92f3577b34da6a3ce929d0e0e4736",
          0x00f067aa0ba902b7L,
          linked("tenant", "contoso", "region", "eu"),
          Map.of("attempt", -3L),
          1,
          0x40L,
          2,
          5);

  static final LabelList ACTIVITY_ONLY =
      LabelList.ofActivities(Guid.parse("abcdef01-2345-6789-abcd-ef0123456789"), Guid.EMPTY);

  static Map<String, String> linked(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  // ---- payloads -------------------------------------------------------------------------------

  static void varUInt(ByteBuffer b, long v) {
    while ((v & ~0x7FL) != 0) {
      b.put((byte) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    b.put((byte) v);
  }

  /** A payload for ALL_TYPES with {@code round} mixed in, and the values it must decode to. */
  static byte[] allTypesPayload(int round) {
    ByteBuffer b = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(-round).putShort((short) 65535);
    b.putInt(1).putChar('\u00e9').put((byte) -5).put((byte) 250).putShort((short) -300);
    b.putShort((short) 60000).putInt(Integer.MIN_VALUE + round).putInt(-1);
    b.putLong(Long.MIN_VALUE).putLong(-2).putFloat(0.5f).putDouble(-1e300);
    b.putInt(3 << 16 | 0x8000_0000).putInt(0).putInt(1234567 + round).putInt(0); // -1234.567
    b.putLong(116_444_736_000_000_000L + 864_000_000_000L); // 1970-01-02
    b.putLong(PROVIDER_GUID.low()).putLong(PROVIDER_GUID.high());
    for (char ch : ("r" + round + " \u4e2d").toCharArray()) {
      b.putChar(ch);
    }
    b.putChar('\0');
    b.putShort((short) 2).putInt(7).putInt(-7);
    b.putShort((short) 1).putInt(5).putShort((short) 6);
    varUInt(b, (-123_456_789L << 1) ^ (-123_456_789L >> 63)); // zigzag
    varUInt(b, -1L); // u64 max: 10 bytes
    b.putShort((short) 1).putShort((short) -2).putShort((short) 3);
    b.putInt(10).putShort((short) 11).putInt(12).putShort((short) 13);
    b.put((byte) 'Q');
    int relAt = b.position();
    b.putInt(0); // patched below
    int locAt = b.position();
    b.putInt(0);
    int locPtsAt = b.position();
    b.putInt(0);
    b.put((byte) 1);
    int relData = b.position();
    b.putShort((short) 100).putShort((short) 200).putShort((short) (300 + round));
    b.putInt(relAt, 6 << 16 | (relData - (relAt + 4)));
    int locData = b.position();
    b.put("hi!".getBytes(StandardCharsets.UTF_8));
    b.putInt(locAt, 3 << 16 | locData);
    int ptsData = b.position();
    b.putInt(-1).putShort((short) 1);
    b.putInt(locPtsAt, 6 << 16 | ptsData);
    return Arrays.copyOf(b.array(), b.position());
  }

  static Map<String, Object> point(int x, int y) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("x", x);
    m.put("y", y);
    return m;
  }

  static Map<String, Object> allTypesValues(int round) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("pt", point(-round, 65535));
    m.put("b32", true);
    m.put("c16", '\u00e9');
    m.put("sb", (byte) -5);
    m.put("ub", 250);
    m.put("i16", (short) -300);
    m.put("u16", 60000);
    m.put("i32", Integer.MIN_VALUE + round);
    m.put("u32", 0xFFFF_FFFFL);
    m.put("i64", Long.MIN_VALUE);
    m.put("u64", new java.math.BigInteger("18446744073709551614"));
    m.put("f", 0.5f);
    m.put("d", -1e300);
    m.put("dec", new BigDecimal(1234567 + round).movePointLeft(3).negate());
    m.put("t", Instant.parse("1970-01-02T00:00:00Z"));
    m.put("g", PROVIDER_GUID);
    m.put("s", "r" + round + " \u4e2d");
    m.put("nums", List.of(7, -7));
    m.put("pts", List.of(point(5, 6)));
    m.put("vi", -123_456_789L);
    m.put("vu", new java.math.BigInteger("18446744073709551615"));
    m.put("fixed", List.of((short) 1, (short) -2, (short) 3));
    m.put("fixedPts", List.of(point(10, 11), point(12, 13)));
    m.put("u8c", 'Q');
    m.put("rel", List.of(100, 200, 300 + round));
    m.put("loc", List.of('h', 'i', '!'));
    m.put("locPts", List.of(point(-1, 1)));
    m.put("b8", true);
    return m;
  }

  // ---- the synthetic trace ----------------------------------------------------------------------

  /** What one written event must read back as. */
  record Expected(
      EventMetadata metadata,
      int sequence,
      TraceThread thread,
      TraceThread captureThread,
      int processor,
      long timestamp,
      LabelList labels,
      StackTrace stack,
      boolean sorted,
      List<Byte> payload,
      Map<String, Object> fields) {}

  /**
   * Two threads, metadata flushed at the first sequence point and re-emitted, one thread removed,
   * all threads flushed at the second sequence point and a new one defined; thread 2 drops one
   * event (sequence 3).
   */
  static byte[] synthesise(boolean compressed, List<Expected> expected) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (NetTraceV6Writer w = NetTraceV6Writer.create(out, HEADER, compressed)) {
      long t1 = w.defineThread(4242, 101, "main", linked("role", "ui"));
      long t2 = w.defineThread(-1, 202, "", Map.of());
      TraceThread row1 = new TraceThread(t1, 4242, 101, "main", linked("role", "ui"));
      TraceThread row2 = new TraceThread(t2, -1, 202, "", Map.of());
      StackTrace s1 = StackTrace.of(0x1000, 0x2000, 0x7fff_0000_0000_0001L);
      EventMetadata overridden =
          new EventMetadata(
              7,
              ALL_TYPES.providerName(),
              3,
              "AllTypes",
              0x40L,
              5,
              2,
              1,
              ALL_TYPES.fields(),
              ALL_TYPES.annotations());
      w.writeEvent(ALL_TYPES, 1, t1, t1, 0, 100, FULL_LABELS, s1, true, allTypesPayload(0));
      expected.add(
          new Expected(
              overridden,
              1,
              row1,
              row1,
              0,
              100,
              FULL_LABELS,
              s1,
              true,
              bytes(allTypesPayload(0)),
              allTypesValues(0)));
      w.writeEvent(GC_START, 1, t2, t2, 3, 150, ACTIVITY_ONLY, StackTrace.EMPTY, true, gcStart(1));
      expected.add(
          new Expected(
              GC_START,
              1,
              row2,
              row2,
              3,
              150,
              ACTIVITY_ONLY,
              StackTrace.EMPTY,
              true,
              bytes(gcStart(1)),
              gcStartValues(1)));
      // Thread 1 writes about thread 2: capture thread and thread differ.
      w.writeEvent(ALL_TYPES, 2, t2, t1, 1, 300, LabelList.EMPTY, s1, false, allTypesPayload(1));
      expected.add(
          new Expected(
              ALL_TYPES,
              2,
              row2,
              row1,
              1,
              300,
              LabelList.EMPTY,
              s1,
              false,
              bytes(allTypesPayload(1)),
              allTypesValues(1)));
      w.writeEvent(GC_START, 2, t2, t2, 3, 200, ACTIVITY_ONLY, s1, false, gcStart(2));
      expected.add(
          new Expected(
              GC_START,
              2,
              row2,
              row2,
              3,
              200,
              ACTIVITY_ONLY,
              s1,
              false,
              bytes(gcStart(2)),
              gcStartValues(2)));
      w.writeSequencePoint(400, false, true);
      w.writeEvent(GC_START, 4, t2, t2, 3, 500, LabelList.EMPTY, s1, true, gcStart(4));
      expected.add(
          new Expected(
              GC_START,
              4,
              row2,
              row2,
              3,
              500,
              LabelList.EMPTY,
              s1,
              true,
              bytes(gcStart(4)),
              gcStartValues(4)));
      w.removeThread(t2);
      w.writeEvent(
          ALL_TYPES, 3, t1, t1, 0, 600, FULL_LABELS, StackTrace.EMPTY, true, allTypesPayload(2));
      expected.add(
          new Expected(
              overridden,
              3,
              row1,
              row1,
              0,
              600,
              FULL_LABELS,
              StackTrace.EMPTY,
              true,
              bytes(allTypesPayload(2)),
              allTypesValues(2)));
      w.writeSequencePoint(700, true, false);
      long t3 = w.defineThread(4343, 303, "worker", Map.of());
      TraceThread row3 = new TraceThread(t3, 4343, 303, "worker", Map.of());
      w.writeEvent(
          GC_START, 1, t3, t3, 2, 800, LabelList.EMPTY, StackTrace.of(0x42), true, gcStart(5));
      expected.add(
          new Expected(
              GC_START,
              1,
              row3,
              row3,
              2,
              800,
              LabelList.EMPTY,
              StackTrace.of(0x42),
              true,
              bytes(gcStart(5)),
              gcStartValues(5)));
    }
    return out.toByteArray();
  }

  static byte[] synthesise(boolean compressed) {
    return synthesise(compressed, new ArrayList<>());
  }

  static List<Byte> bytes(byte[] b) {
    List<Byte> list = new ArrayList<>(b.length);
    for (byte x : b) {
      list.add(x);
    }
    return list;
  }

  static byte[] gcStart(int count) {
    return SyntheticTraceTest.gcStartPayload(count);
  }

  static Map<String, Object> gcStartValues(int count) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("Count", (long) count);
    m.put("Depth", 2L);
    m.put("Reason", 1L);
    m.put("Type", 0L);
    m.put("ClrInstanceID", 7);
    m.put("ClientSequenceNumber", 555L);
    return m;
  }

  static List<TraceEvent> readAll(byte[] data) {
    return SyntheticTraceTest.readAll(data);
  }

  // ---- tests ----------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void everyBlockKindAndFieldRoundTrips(boolean compressed) {
    List<Expected> expected = new ArrayList<>();
    byte[] data = synthesise(compressed, expected);
    List<TraceEvent> events = new ArrayList<>();
    try (NetTraceReader r = NetTraceReader.open(new ByteArrayInputStream(data))) {
      assertThat(r.header())
          .isEqualTo(
              new TraceHeader(
                  6,
                  HEADER.syncTimeUtc(),
                  HEADER.syncTimeQpc(),
                  HEADER.qpcFrequency(),
                  8,
                  4242,
                  16,
                  1000,
                  HEADER.keyValues()));
      TraceEvent e;
      while ((e = r.next()) != null) {
        events.add(e);
      }
      assertThat(r.droppedEvents()).as("thread 2 skipped sequence 3").isEqualTo(1);
      assertThat(r.sequencePoints()).isEqualTo(3);
    }
    expected.sort((a, b) -> Long.compare(a.timestamp(), b.timestamp()));
    assertThat(events).hasSameSizeAs(expected);
    for (int i = 0; i < events.size(); i++) {
      TraceEvent e = events.get(i);
      Expected x = expected.get(i);
      String at = "event " + i + " " + e;
      assertThat(e.metadata()).as(at).isEqualTo(x.metadata());
      assertThat(e.sequenceNumber()).as(at).isEqualTo(x.sequence());
      assertThat(e.thread()).as(at).contains(x.thread());
      assertThat(e.captureThread()).as(at).contains(x.captureThread());
      assertThat(e.threadId()).as(at).isEqualTo(x.thread().threadId());
      assertThat(e.captureThreadId()).as(at).isEqualTo(x.captureThread().threadId());
      assertThat(e.processId())
          .as(at)
          .isEqualTo(x.thread().processId() >= 0 ? x.thread().processId() : 4242);
      assertThat(e.processorNumber()).as(at).isEqualTo(x.processor());
      assertThat(e.timestamp()).as(at).isEqualTo(x.timestamp());
      assertThat(e.labels()).as(at).isEqualTo(x.labels());
      assertThat(e.activityId()).as(at).isEqualTo(x.labels().activityId());
      assertThat(e.relatedActivityId()).as(at).isEqualTo(x.labels().relatedActivityId());
      assertThat(e.stack()).as(at).isEqualTo(x.stack());
      assertThat(e.isSorted()).as(at).isEqualTo(x.sorted());
      assertThat(bytes(e.copyPayload())).as(at).isEqualTo(x.payload());
      assertThat(EventFields.of(e).asMap()).as(at).isEqualTo(x.fields());
    }
    TraceEvent gc = events.get(1);
    assertThat(RuntimeEvents.decode(gc)).contains(new RuntimePayload.GcStart(1, 2, 1, 0, 7, 555));
    assertThat(events.get(0).decodeSelfDescribed().asMap().keySet())
        .containsExactlyElementsOf(allTypesValues(0).keySet());
  }

  @Test
  void copyingAV6TraceKeepsEveryField() {
    List<TraceEvent> original = readAll(synthesise(true));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (NetTraceV6Writer w = NetTraceV6Writer.create(out, HEADER)) {
      original.forEach(w::writeEvent);
    }
    List<TraceEvent> copy = readAll(out.toByteArray());
    assertThat(copy).hasSameSizeAs(original);
    for (int i = 0; i < copy.size(); i++) {
      assertSameV6Event(copy.get(i), original.get(i), i);
    }
  }

  static void assertSameV6Event(TraceEvent a, TraceEvent b, int i) {
    RoundTripTest.assertSameEvent(a, b, i);
    String at = "event " + i + " " + b;
    assertThat(a.processId()).as(at).isEqualTo(b.processId());
    assertThat(a.labels()).as(at).isEqualTo(b.labels());
    // Indexes are the writer's own; the rows' content must survive.
    assertThat(a.thread().map(NetTraceV6Test::withoutIndex))
        .as(at)
        .isEqualTo(b.thread().map(NetTraceV6Test::withoutIndex));
    assertThat(a.captureThread().map(NetTraceV6Test::withoutIndex))
        .as(at)
        .isEqualTo(b.captureThread().map(NetTraceV6Test::withoutIndex));
  }

  static TraceThread withoutIndex(TraceThread t) {
    return new TraceThread(0, t.processId(), t.threadId(), t.name(), t.keyValues());
  }

  private static Path golden(String name) throws URISyntaxException {
    return Path.of(NetTraceV6Test.class.getResource("/golden/" + name).toURI());
  }

  @ParameterizedTest
  @ValueSource(strings = {"golden", Fixtures.ARRAY_TYPES, Fixtures.CHECKPOINTS})
  void v4TracesConvertToV6WithEqualEvents(String name) throws URISyntaxException {
    Path path = name.equals("golden") ? golden("golden.nettrace") : Fixtures.perfview(name);
    List<TraceEvent> v4 = new ArrayList<>();
    TraceHeader header;
    long dropped;
    try (NetTraceReader r = NetTraceReader.open(path)) {
      header = r.header();
      TraceEvent e;
      while ((e = r.next()) != null) {
        v4.add(e);
      }
      dropped = r.droppedEvents();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (NetTraceV6Writer w = NetTraceV6Writer.create(out, header)) {
      v4.forEach(w::writeEvent);
    }
    List<TraceEvent> v6 = new ArrayList<>();
    try (NetTraceReader r = NetTraceReader.open(new ByteArrayInputStream(out.toByteArray()))) {
      TraceHeader h = r.header();
      assertThat(h.formatVersion()).isEqualTo(6);
      assertThat(h.syncTimeUtc()).isEqualTo(header.syncTimeUtc());
      assertThat(h.syncTimeQpc()).isEqualTo(header.syncTimeQpc());
      assertThat(h.qpcFrequency()).isEqualTo(header.qpcFrequency());
      assertThat(h.pointerSize()).isEqualTo(header.pointerSize());
      assertThat(h.processId()).isEqualTo(header.processId());
      assertThat(h.processorCount()).isEqualTo(header.processorCount());
      assertThat(h.expectedCpuSamplingRate()).isEqualTo(header.expectedCpuSamplingRate());
      TraceEvent e;
      while ((e = r.next()) != null) {
        v6.add(e);
      }
      assertThat(r.droppedEvents()).isEqualTo(dropped);
    }
    assertThat(v6).hasSameSizeAs(v4);
    for (int i = 0; i < v4.size(); i++) {
      RoundTripTest.assertSameEvent(v6.get(i), v4.get(i), i);
      assertThat(v6.get(i).processId()).isEqualTo(header.processId());
      assertThat(v6.get(i).labels().activityId()).isEqualTo(v4.get(i).activityId());
    }
  }

  /** {@code data} without its blocks of V6 kind {@code kind}. */
  static byte[] withoutBlocks(byte[] data, int kind) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int at = 20; // "Nettrace" + reserved, major, minor
    out.write(data, 0, at);
    while (at < data.length) {
      int h = ByteBuffer.wrap(data, at, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      int size = 4 + (h & 0xFFFFFF);
      if (h >>> 24 != kind) {
        out.write(data, at, size);
      }
      at += size;
    }
    return out.toByteArray();
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 6, 8})
  void referencesToUndefinedRowsAreFormatErrors(int missingKind) {
    byte[] data = withoutBlocks(synthesise(true), missingKind);
    String what =
        missingKind == 3
            ? "undefined metadata"
            : missingKind == 6 ? "undefined thread" : "undefined label list";
    assertThatThrownBy(() -> readAll(data))
        .isInstanceOf(NetTraceFormatException.class)
        .hasMessageContaining(what);
  }

  @Test
  void unknownBlockKindsAreSkipped() {
    byte[] data = synthesise(true);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(data, 0, 20);
    // A kind-42 block before everything else but the trace block would be rejected as not-trace,
    // so put it after the trace block.
    int traceSize =
        4 + (ByteBuffer.wrap(data, 20, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xFFFFFF);
    out.write(data, 20, traceSize);
    out.write(new byte[] {3, 0, 0, 42, 1, 2, 3}, 0, 7);
    out.write(data, 20 + traceSize, data.length - 20 - traceSize);
    assertThat(readAll(out.toByteArray())).hasSize(readAll(data).size());
  }

  @Test
  void everyTruncationFailsCleanly() {
    for (boolean compressed : new boolean[] {true, false}) {
      byte[] data = synthesise(compressed);
      CorruptionTest.Outcomes strict = new CorruptionTest.Outcomes();
      CorruptionTest.Outcomes lenient = new CorruptionTest.Outcomes();
      assertTimeoutPreemptively(
          Duration.ofSeconds(30),
          () -> {
            for (int len = 0; len < data.length; len++) {
              byte[] prefix = Arrays.copyOf(data, len);
              CorruptionTest.readFully(prefix, false, strict);
              CorruptionTest.readFully(prefix, true, lenient);
            }
          });
      assertThat(strict.formatErrors).isEqualTo(data.length);
      assertThat(lenient.partial).isPositive();
      assertThat(lenient.partial + lenient.formatErrors).isEqualTo(data.length);
    }
  }

  @Test
  void seededRandomCorruptionsFailCleanly() {
    byte[][] inputs = {synthesise(true), synthesise(false)};
    SplittableRandom random = new SplittableRandom(20250304);
    CorruptionTest.Outcomes o = new CorruptionTest.Outcomes();
    assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () -> {
          for (int round = 0; round < 4000; round++) {
            byte[] data = inputs[round % inputs.length].clone();
            int flips = 1 + random.nextInt(4);
            for (int k = 0; k < flips; k++) {
              int at = random.nextInt(data.length);
              data[at] =
                  random.nextBoolean()
                      ? (byte) random.nextInt(256)
                      : (byte) (data[at] ^ (1 << random.nextInt(8)));
            }
            CorruptionTest.readFully(data, round % 3 == 0, o);
          }
        });
    assertThat(o.formatErrors).isPositive();
    assertThat(o.complete).isPositive();
    assertThat(o.complete + o.formatErrors + o.partial).isEqualTo(4000);
  }

  @Test
  void hugeDeclaredBlockSizeIsNeverAllocated() {
    byte[] data = synthesise(true);
    int traceSize =
        4 + (ByteBuffer.wrap(data, 20, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xFFFFFF);
    byte[] bad = data.clone();
    int at = 20 + traceSize;
    bad[at] = (byte) 0xFF;
    bad[at + 1] = (byte) 0xFF;
    bad[at + 2] = (byte) 0xFF;
    assertThatThrownBy(() -> readAll(bad))
        .isInstanceOf(NetTraceFormatException.class)
        .hasMessageContaining("declared");
  }

  @Test
  void rejectsOtherMajorVersions() {
    byte[] data = synthesise(true);
    data[12] = 7;
    assertThatThrownBy(() -> readAll(data))
        .isInstanceOf(NetTraceFormatException.class)
        .hasMessageContaining("major version 7");
  }
}
