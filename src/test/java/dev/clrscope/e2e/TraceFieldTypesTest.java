package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The golden EventSource (src/test/dotnet/GoldenTraceApp) traced live through {@code clrscope trace
 * collect -- dotnet GoldenTraceApp.dll} and printed by {@code clrscope trace events}: the same
 * counts and decoded values that nettrace's GoldenTraceTest asserts on the runtime-written trace,
 * now through the IPC session and the JSON Lines output.
 */
class TraceFieldTypesTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SOURCE = "Clrscope-Golden";
  private static final int ROUNDS = 3;

  @TempDir static Path dir;

  /** Payloads of the golden source's events by event name, in trace order. */
  private static Map<String, List<JsonNode>> byName;

  @BeforeAll
  static void collect() throws Exception {
    Path file = dir.resolve("golden.nettrace");
    List<String> args =
        new ArrayList<>(
            List.of(
                "trace",
                "collect",
                "--providers",
                SOURCE + ":0xFFFFFFFFFFFFFFFF:5",
                "-o",
                file.toString(),
                // The app's output comes on clrscope's stderr; stdout holds the trace's path.
                "--"));
    args.addAll(DotnetApps.command("GoldenTraceApp"));
    CliResult collected = Clrscope.run(TIMEOUT, args.toArray(String[]::new));
    assertThat(collected.exitCode()).as("%s", collected).isZero();
    assertThat(collected.stderr()).contains("rounds=3 exceptions=5 gcs=4");
    assertThat(collected.stdout()).doesNotContain("rounds=");

    CliResult events =
        Clrscope.run(TIMEOUT, "trace", "events", file.toString(), "--provider", SOURCE);
    assertThat(events.exitCode()).as("%s", events).isZero();
    byName = new LinkedHashMap<>();
    for (String line : events.stdoutLines()) {
      JsonNode e = JSON.readTree(line);
      assertThat(e.path("provider").asText()).isEqualTo(SOURCE);
      byName.computeIfAbsent(e.path("name").asText(), k -> new ArrayList<>()).add(e);
    }
  }

  /** The "value" field of each round's event. */
  private static List<JsonNode> values(String name) {
    List<JsonNode> list = byName.get(name);
    assertThat(list).as(name).hasSize(ROUNDS);
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode e : list) {
      JsonNode payload = e.path("payload");
      assertThat(payload.size()).as("%s", e).isEqualTo(1);
      out.add(payload.path("value"));
    }
    return out;
  }

  private static List<Long> longs(String name) {
    return values(name).stream().map(JsonNode::asLong).toList();
  }

  private static List<String> texts(String name) {
    return values(name).stream().map(JsonNode::asText).toList();
  }

  @Test
  void everyEventAppearsOncePerRoundWithAStack() {
    assertThat(byName.keySet())
        .containsExactlyInAnyOrder(
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
    byName.forEach(
        (name, list) -> {
          assertThat(list).as(name).hasSize(ROUNDS);
          assertThat(list).allSatisfy(e -> assertThat(e.path("stack").size()).isPositive());
        });
    for (int i = 0; i < 18; i++) {
      String name = List.copyOf(byName.keySet()).get(i);
      assertThat(byName.get(name).get(0).path("eventId").asInt()).as(name).isEqualTo(i + 1);
    }
  }

  @Test
  void scalarValues() {
    assertThat(values("BoolEvent").stream().map(JsonNode::asBoolean).toList())
        .containsExactly(true, false, true);
    assertThat(texts("CharEvent")).containsExactly("A", "\u00e9", "\u4e2d");
    assertThat(longs("SByteEvent")).containsExactly(-128L, -1L, 127L);
    assertThat(longs("ByteEvent")).containsExactly(0L, 0x80L, 0xFFL);
    assertThat(longs("Int16Event")).containsExactly(-32768L, -2L, 32767L);
    assertThat(longs("UInt16Event")).containsExactly(0L, 0x8000L, 0xFFFFL);
    assertThat(longs("Int32Event"))
        .containsExactly((long) Integer.MIN_VALUE, -3L, (long) Integer.MAX_VALUE);
    assertThat(longs("UInt32Event")).containsExactly(0L, 0x8000_0000L, 0xFFFF_FFFFL);
    assertThat(longs("Int64Event")).containsExactly(Long.MIN_VALUE, -4L, Long.MAX_VALUE);
    // u64 prints as its raw bits, as the decoder returns it.
    assertThat(longs("UInt64Event")).containsExactly(0L, Long.MIN_VALUE, -1L);
    assertThat(values("SingleEvent").stream().map(v -> (float) v.asDouble()).toList())
        .containsExactly(-1.5f, 0f, (float) 3.25e10);
    assertThat(values("DoubleEvent").stream().map(JsonNode::asDouble).toList())
        .containsExactly(-2.5, Math.PI, Double.MAX_VALUE);
    assertThat(texts("DateTimeEvent"))
        .containsExactly(
            "2000-01-01T00:00:00Z", "2024-02-29T12:34:56.789Z", "2099-12-31T23:59:59Z");
    assertThat(texts("GuidEvent"))
        .containsExactly(
            "00000000-0000-0000-0000-000000000000",
            "01234567-89ab-cdef-0123-456789abcdef",
            "ffffffff-ffff-ffff-ffff-ffffffffffff");
    assertThat(texts("StringEvent"))
        .containsExactly("", "hello", "caf\u00e9 \u4e2d\u6587 \uD83D\uDE00");
    assertThat(longs("EnumEvent")).containsExactly(1L, 2L, 0x7FFF0000L);
  }

  @Test
  void structuredValues() {
    List<JsonNode> mixed = byName.get("MixedEvent");
    List<JsonNode> nested = byName.get("NestedEvent");
    for (int i = 0; i < ROUNDS; i++) {
      JsonNode m = mixed.get(i).path("payload");
      assertThat(List.copyOf(iterable(m))).containsExactly("count", "name", "total", "ok");
      assertThat(m.path("count").asInt()).isEqualTo(i);
      assertThat(m.path("name").asText()).isEqualTo("round" + i);
      assertThat(m.path("total").asLong()).isEqualTo(1L << (40 + i));
      assertThat(m.path("ok").asBoolean()).isEqualTo(i % 2 == 0);

      JsonNode n = nested.get(i).path("payload");
      assertThat(List.copyOf(iterable(n))).containsExactly("Id", "Where");
      assertThat(n.path("Id").asInt()).isEqualTo(i);
      assertThat(n.path("Where").path("X").asInt()).isEqualTo(-i);
      assertThat(n.path("Where").path("Y").asInt()).isEqualTo(100 + i);
      assertThat(n.path("Where").path("Label").asText()).isEqualTo("p" + i);
    }
    // The runtime gives byte[] and Write<T> arrays no field metadata: no fields, as in TraceEvent.
    for (String name : List.of("BytesEvent", "IntArrayEvent", "PairArrayEvent")) {
      assertThat(byName.get(name)).allSatisfy(e -> assertThat(e.path("payload").size()).isZero());
    }
  }

  /**
   * The runtime describes a decimal as 16 bytes but writes an 8-byte double: the event is marked
   * undecodable with its bytes, and the events after it still print.
   */
  @Test
  void decimalIsMarkedUndecodableWithItsBytes() {
    String[] doubles = {"0000000000000000", "77be9f1a2fdd5e40", "000000000000f8bf"};
    List<JsonNode> list = byName.get("DecimalEvent");
    for (int i = 0; i < ROUNDS; i++) {
      JsonNode p = list.get(i).path("payload");
      assertThat(p.path("_undecodable").asText())
          .isEqualTo("expected 4 bytes of Amount, only 0 left at payload offset 8");
      assertThat(p.path("_payloadHex").asText()).isEqualTo(doubles[i]);
      assertThat(list.get(i).has("payloadError")).isFalse();
    }
  }

  private static List<String> iterable(JsonNode n) {
    List<String> names = new ArrayList<>();
    n.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
