package dev.clrscope.nettrace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.nettrace.events.EventFields;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimePayload;
import dev.clrscope.nettrace.events.RuntimePayload.ExceptionThrown;
import dev.clrscope.nettrace.events.RuntimePayload.GcEnd;
import dev.clrscope.nettrace.events.RuntimePayload.GcStart;
import dev.clrscope.nettrace.events.RuntimePayload.GcTriggered;
import dev.clrscope.nettrace.events.RuntimePayload.RuntimeInformation;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The golden trace written by the .NET runtime itself (EventPipe file session) while
 * src/test/dotnet/GoldenTraceApp emits known events; regenerate with
 * src/test/resources/golden/regenerate.sh. Every expected value below mirrors that app's
 * Program.cs.
 */
class GoldenTraceTest {
  private static final String SOURCE = "Clrscope-Golden";
  private static final int ROUNDS = 3;
  private static final int EXCEPTIONS = 5;
  private static final int INDUCED_GCS = 4;

  private static TraceHeader header;
  private static List<TraceEvent> events;
  private static long dropped;

  @BeforeAll
  static void read() throws URISyntaxException {
    try (NetTraceReader r = NetTraceReader.open(golden("golden.nettrace"))) {
      header = r.header();
      events = new ArrayList<>();
      TraceEvent e;
      while ((e = r.next()) != null) {
        events.add(e);
      }
      dropped = r.droppedEvents();
      assertThat(r.stopReason()).isEmpty();
    }
  }

  private static Path golden(String name) throws URISyntaxException {
    return Path.of(GoldenTraceTest.class.getResource("/golden/" + name).toURI());
  }

  private static List<TraceEvent> named(String name) {
    return events.stream()
        .filter(e -> e.providerName().equals(SOURCE) && e.eventName().equals(name))
        .collect(Collectors.toList());
  }

  private static List<TraceEvent> runtime(int id) {
    return events.stream()
        .filter(e -> e.providerName().equals(RuntimeEvents.RUNTIME_PROVIDER) && e.eventId() == id)
        .collect(Collectors.toList());
  }

  /** The single field "value" of each round's event, decoded through both public paths. */
  private static List<Object> values(String name, TypeCode type) {
    List<TraceEvent> list = named(name);
    assertThat(list).hasSize(ROUNDS);
    List<Object> out = new ArrayList<>();
    for (TraceEvent e : list) {
      assertThat(e.metadata().fields()).containsExactly(FieldDescriptor.of("value", type));
      DecodedPayload p = e.decodeSelfDescribed();
      assertThat(EventFields.of(e).asMap()).isEqualTo(p.asMap());
      assertThat(p.asMap()).containsOnlyKeys("value");
      out.add(p.get("value"));
    }
    return out;
  }

  private static ByteBuffer le(TraceEvent e) {
    return ByteBuffer.wrap(e.copyPayload()).order(ByteOrder.LITTLE_ENDIAN);
  }

  @Test
  void header() {
    assertThat(header.formatVersion()).isEqualTo(4);
    assertThat(header.pointerSize()).isEqualTo(8);
    assertThat(dropped).isZero();
  }

  @Test
  void everyEventSourceEventAppearsOncePerRoundWithAStack() {
    Map<String, Long> counts =
        events.stream()
            .filter(e -> e.providerName().equals(SOURCE))
            .collect(
                Collectors.groupingBy(
                    TraceEvent::eventName, LinkedHashMap::new, Collectors.counting()));
    List<String> names =
        List.of(
            "BoolEvent",
            "CharEvent",
            "SByteEvent",
            "ByteEvent",
            "Int16Event",
            "UInt16Event",
            "Int32Event",
            "UInt32Event",
            "Int64Event",
            "UInt64Event",
            "SingleEvent",
            "DoubleEvent",
            "DateTimeEvent",
            "GuidEvent",
            "StringEvent",
            "BytesEvent",
            "EnumEvent",
            "MixedEvent",
            "NestedEvent",
            "IntArrayEvent",
            "PairArrayEvent",
            "DecimalEvent");
    Map<String, Long> expected = new LinkedHashMap<>();
    names.forEach(n -> expected.put(n, (long) ROUNDS));
    assertThat(counts).containsExactlyEntriesOf(expected);
    for (TraceEvent e : events) {
      if (e.providerName().equals(SOURCE)) {
        assertThat(e.stack().depth()).as("stack of %s", e).isPositive();
        assertThat(e.metadata().level()).isEqualTo(4);
      }
    }
    // Manifest events carry their ids 1-18 in declaration order (Write<T> events get ids that
    // the runtime assigns).
    for (int i = 0; i < 18; i++) {
      assertThat(named(names.get(i)).get(0).eventId()).isEqualTo(i + 1);
    }
  }

  @Test
  void scalarValues() {
    assertThat(values("BoolEvent", TypeCode.BOOLEAN32)).containsExactly(true, false, true);
    assertThat(values("CharEvent", TypeCode.CHAR16)).containsExactly('A', '\u00e9', '\u4e2d');
    assertThat(values("SByteEvent", TypeCode.SBYTE))
        .containsExactly(Byte.MIN_VALUE, (byte) -1, Byte.MAX_VALUE);
    assertThat(values("ByteEvent", TypeCode.BYTE)).containsExactly(0, 0x80, 0xFF);
    assertThat(values("Int16Event", TypeCode.INT16))
        .containsExactly(Short.MIN_VALUE, (short) -2, Short.MAX_VALUE);
    assertThat(values("UInt16Event", TypeCode.UINT16)).containsExactly(0, 0x8000, 0xFFFF);
    assertThat(values("Int32Event", TypeCode.INT32))
        .containsExactly(Integer.MIN_VALUE, -3, Integer.MAX_VALUE);
    assertThat(values("UInt32Event", TypeCode.UINT32))
        .containsExactly(0L, 0x8000_0000L, 0xFFFF_FFFFL);
    assertThat(values("Int64Event", TypeCode.INT64))
        .containsExactly(Long.MIN_VALUE, -4L, Long.MAX_VALUE);
    // u64 from 2^63 up decodes to its exact unsigned value (ulong.MaxValue is not -1).
    assertThat(values("UInt64Event", TypeCode.UINT64))
        .containsExactly(
            0L,
            new java.math.BigInteger("9223372036854775808"),
            new java.math.BigInteger("18446744073709551615"));
    assertThat(values("SingleEvent", TypeCode.SINGLE)).containsExactly(-1.5f, 0f, (float) 3.25e10);
    assertThat(values("DoubleEvent", TypeCode.DOUBLE))
        .containsExactly(-2.5, Math.PI, Double.MAX_VALUE);
    assertThat(values("DateTimeEvent", TypeCode.DATE_TIME))
        .containsExactly(
            Instant.parse("2000-01-01T00:00:00Z"),
            Instant.parse("2024-02-29T12:34:56.789Z"),
            Instant.parse("2099-12-31T23:59:59Z"));
    assertThat(values("GuidEvent", TypeCode.GUID))
        .containsExactly(
            Guid.EMPTY,
            Guid.parse("01234567-89ab-cdef-0123-456789abcdef"),
            Guid.parse("ffffffff-ffff-ffff-ffff-ffffffffffff"));
    assertThat(values("StringEvent", TypeCode.STRING))
        .containsExactly("", "hello", "caf\u00e9 \u4e2d\u6587 \uD83D\uDE00");
    // An enum is described as its underlying type.
    assertThat(values("EnumEvent", TypeCode.INT32)).containsExactly(1, 2, 0x7FFF0000);
  }

  @Test
  void scalarPayloadsHaveExactlyTheDescribedSize() {
    for (TraceEvent e : events) {
      if (e.providerName().equals(SOURCE) && e.metadata().fields().size() == 1) {
        int size = e.metadata().fields().get(0).type().fixedSize();
        if (size > 0) {
          assertThat(e.payloadLength()).as("%s", e).isEqualTo(size);
        }
      }
    }
  }

  @Test
  void severalFieldsInOneEvent() {
    List<TraceEvent> list = named("MixedEvent");
    assertThat(list).hasSize(ROUNDS);
    for (int i = 0; i < ROUNDS; i++) {
      Map<String, Object> expected = new LinkedHashMap<>();
      expected.put("count", i);
      expected.put("name", "round" + i);
      expected.put("total", 1L << (40 + i));
      expected.put("ok", i % 2 == 0);
      assertThat(list.get(i).decodeSelfDescribed().asMap()).containsExactlyEntriesOf(expected);
      assertThat(EventFields.of(list.get(i)).asMap()).containsExactlyEntriesOf(expected);
    }
  }

  @Test
  void nestedStructOfAWriteEvent() {
    List<TraceEvent> list = named("NestedEvent");
    for (int i = 0; i < ROUNDS; i++) {
      TraceEvent e = list.get(i);
      // The runtime describes Write<T> payloads as one unnamed struct; the decoder unwraps it.
      assertThat(e.metadata().fields()).hasSize(1);
      assertThat(e.metadata().fields().get(0).name()).isEmpty();
      assertThat(e.metadata().fields().get(0).type()).isEqualTo(TypeCode.OBJECT);
      Map<String, Object> where = new LinkedHashMap<>();
      where.put("X", -i);
      where.put("Y", 100 + i);
      where.put("Label", "p" + i);
      Map<String, Object> expected = new LinkedHashMap<>();
      expected.put("Id", i);
      expected.put("Where", where);
      assertThat(e.decodeSelfDescribed().asMap()).isEqualTo(expected);
      assertThat(e.decodeSelfDescribed().asMap().keySet()).containsExactly("Id", "Where");
    }
  }

  /**
   * .NET 10 writes no field metadata for byte[] (manifest) nor for arrays in Write<T> events, so
   * they decode to no fields, like in TraceEvent; the payload bytes are still exact.
   */
  @Test
  void arraysWithoutFieldMetadataKeepTheirBytes() {
    byte[][] blobs = {{}, {1, 2, 3}, {(byte) 0xFF, 0, 0x7F, (byte) 0x80}};
    List<TraceEvent> bytes = named("BytesEvent");
    for (int i = 0; i < ROUNDS; i++) {
      TraceEvent e = bytes.get(i);
      assertThat(e.metadata().fields()).isEmpty();
      assertThat(e.decodeSelfDescribed().size()).isZero();
      ByteBuffer b = le(e);
      assertThat(b.getInt()).isEqualTo(blobs[i].length);
      byte[] rest = new byte[b.remaining()];
      b.get(rest);
      assertThat(rest).isEqualTo(blobs[i]);
    }
    List<TraceEvent> ints = named("IntArrayEvent");
    List<TraceEvent> pairs = named("PairArrayEvent");
    for (int i = 0; i < ROUNDS; i++) {
      assertThat(ints.get(i).metadata().fields()).isEmpty();
      ByteBuffer b = le(ints.get(i));
      assertThat(b.getShort()).isEqualTo((short) (i + 1));
      for (int k = 0; k <= i; k++) {
        assertThat(b.getInt()).isEqualTo(k * 10 - 5);
      }
      assertThat(b.remaining()).isZero();

      assertThat(pairs.get(i).metadata().fields()).isEmpty();
      ByteBuffer p = le(pairs.get(i));
      assertThat(p.getShort()).isEqualTo((short) i);
      for (int k = 0; k < i; k++) {
        assertThat(p.getInt()).isEqualTo(k);
        assertThat(p.getShort()).isEqualTo((short) -k);
      }
      assertThat(p.remaining()).isZero();
    }
  }

  /**
   * Runtime quirk: a decimal in a Write<T> event is described as TypeCode 15 (16-byte decimal) but
   * written as an 8-byte double, so strict decoding reports the short payload.
   */
  @Test
  void decimalIsDescribedAsDecimalButWrittenAsDouble() {
    BigDecimal[] amounts = {BigDecimal.ZERO, new BigDecimal("123.456"), new BigDecimal("-1.5")};
    List<TraceEvent> list = named("DecimalEvent");
    for (int i = 0; i < ROUNDS; i++) {
      TraceEvent e = list.get(i);
      assertThat(e.metadata().fields().get(0).fields())
          .containsExactly(FieldDescriptor.of("Amount", TypeCode.DECIMAL));
      assertThat(e.payloadLength()).isEqualTo(8);
      assertThat(le(e).getDouble()).isEqualTo(amounts[i].doubleValue());
      assertThatThrownBy(e::decodeSelfDescribed)
          .isInstanceOf(NetTraceFormatException.class)
          .hasMessageContaining("Amount");
    }
  }

  @Test
  void exceptions() {
    List<RuntimePayload> thrown = typed(runtime(80));
    assertThat(thrown).hasSize(EXCEPTIONS);
    for (int i = 0; i < EXCEPTIONS; i++) {
      ExceptionThrown x = (ExceptionThrown) thrown.get(i);
      assertThat(x.exceptionType()).isEqualTo("System.InvalidOperationException");
      assertThat(x.exceptionMessage()).isEqualTo("golden exception " + i);
      assertThat(x.exceptionHResult()).isEqualTo(0x80131509L); // COR_E_INVALIDOPERATION
    }
    assertThat(RuntimeEvents.displayName(runtime(80).get(0))).isEqualTo("Exception/Start");
    assertThat(runtime(80)).allSatisfy(e -> assertThat(e.stack().depth()).isPositive());
    // ExceptionCatchStart (250), ExceptionCatchStop (251), ExceptionThrownStop (256): one each.
    assertThat(runtime(250)).hasSize(EXCEPTIONS);
    assertThat(runtime(251)).hasSize(EXCEPTIONS);
    assertThat(runtime(256)).hasSize(EXCEPTIONS);
  }

  @Test
  void inducedGcs() {
    List<RuntimePayload> starts = typed(runtime(1));
    assertThat(starts).hasSize(INDUCED_GCS);
    for (int i = 0; i < INDUCED_GCS; i++) {
      GcStart s = (GcStart) starts.get(i);
      assertThat(s.count()).isEqualTo(i + 1);
      assertThat(s.depth()).isEqualTo(2);
      assertThat(s.reason()).isEqualTo(1); // Induced
      assertThat(s.type()).isZero(); // NonConcurrent
    }
    List<RuntimePayload> ends = typed(runtime(2));
    assertThat(ends).hasSize(INDUCED_GCS);
    for (int i = 0; i < INDUCED_GCS; i++) {
      assertThat(((GcEnd) ends.get(i)).count()).isEqualTo(i + 1);
      assertThat(((GcEnd) ends.get(i)).depth()).isEqualTo(2);
    }
    assertThat(typed(runtime(35)))
        .hasSize(INDUCED_GCS)
        .allSatisfy(t -> assertThat(((GcTriggered) t).reason()).isEqualTo(1));
    assertThat(runtime(4)).hasSize(INDUCED_GCS); // HeapStats
    Map<String, Object> first = EventFields.of(runtime(1).get(0)).asMap();
    assertThat(first).containsEntry("Reason", 1L).containsEntry("Depth", 2L);
  }

  @Test
  void runtimeVersionMatchesTheSidecar() throws IOException, URISyntaxException {
    RuntimeInformation info =
        (RuntimeInformation) RuntimeEvents.decode(runtime(187).get(0)).orElseThrow();
    String version =
        info.bclMajorVersion() + "." + info.bclMinorVersion() + "." + info.bclBuildNumber();
    String sidecar = Files.readString(golden("golden.runtime.txt"), StandardCharsets.UTF_8);
    assertThat(sidecar).contains("runtime: " + version + "\n");
  }

  @Test
  void roundTripThroughTheWriterKeepsEveryDecodedValue() {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    try (NetTraceWriter w = NetTraceWriter.create(out, header)) {
      events.forEach(w::writeEvent);
    }
    List<TraceEvent> again = new ArrayList<>();
    try (NetTraceReader r =
        NetTraceReader.open(new java.io.ByteArrayInputStream(out.toByteArray()))) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        again.add(e);
      }
    }
    assertThat(again).hasSize(events.size());
    Function<TraceEvent, Object> decoded =
        e -> {
          try {
            return EventFields.of(e).asMap();
          } catch (NetTraceFormatException x) {
            return "format exception";
          }
        };
    for (int i = 0; i < events.size(); i++) {
      assertThat(decoded.apply(again.get(i))).isEqualTo(decoded.apply(events.get(i)));
      assertThat(again.get(i).copyPayload()).isEqualTo(events.get(i).copyPayload());
      assertThat(again.get(i).stack()).isEqualTo(events.get(i).stack());
    }
  }

  private static List<RuntimePayload> typed(List<TraceEvent> list) {
    return list.stream()
        .map(e -> RuntimeEvents.decode(e).orElseThrow())
        .collect(Collectors.toList());
  }
}
