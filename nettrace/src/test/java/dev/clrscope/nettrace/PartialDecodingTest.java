package dev.clrscope.nettrace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.nettrace.events.EventFields;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link EventFields#of} survives payloads that contradict their description, keeping what it
 * decoded and marking the rest; strict decoding and structural errors are unchanged.
 */
class PartialDecodingTest {

  private static List<TraceEvent> golden() throws Exception {
    Path p = Path.of(PartialDecodingTest.class.getResource("/golden/golden.nettrace").toURI());
    return SyntheticTraceTest.readAll(Files.readAllBytes(p));
  }

  /** .NET 10 describes a decimal as 16 bytes but writes an 8-byte double. */
  @Test
  void runtimeDecimalQuirkIsMarkedNotThrown() throws Exception {
    List<TraceEvent> decimals = new ArrayList<>();
    int after = 0;
    for (TraceEvent e : golden()) {
      // Every event decodes through the generic view; none throws.
      Map<String, Object> fields = EventFields.of(e).asMap();
      if (e.eventName().equals("DecimalEvent")) {
        decimals.add(e);
      } else if (!decimals.isEmpty()) {
        after++;
      }
      assertThat(fields.containsKey(EventFields.UNDECODABLE))
          .as("%s", e)
          .isEqualTo(e.eventName().equals("DecimalEvent"));
    }
    assertThat(decimals).hasSize(3);
    assertThat(after).as("events after the first undecodable one").isPositive();
    for (TraceEvent e : decimals) {
      Map<String, Object> fields = EventFields.of(e).asMap();
      assertThat(fields.keySet()).containsExactly(EventFields.UNDECODABLE, EventFields.PAYLOAD_HEX);
      // flags, hi (4 + 4 bytes) fit; lo finds the 8-byte payload exhausted.
      assertThat((String) fields.get(EventFields.UNDECODABLE))
          .isEqualTo("expected 4 bytes of Amount, only 0 left at payload offset 8");
      assertThat(fields.get(EventFields.PAYLOAD_HEX))
          .isEqualTo(HexFormat.of().formatHex(e.copyPayload()));
      assertThatThrownBy(e::decodeSelfDescribed)
          .isInstanceOf(NetTraceFormatException.class)
          .hasMessageContaining("Amount");
    }
  }

  static final EventMetadata MIXED =
      new EventMetadata(
          3,
          "My-Source",
          1,
          "Mixed",
          0,
          0,
          4,
          0,
          List.of(
              FieldDescriptor.of("a", TypeCode.INT32),
              FieldDescriptor.struct("pt", List.of(FieldDescriptor.of("x", TypeCode.INT16))),
              FieldDescriptor.of("s", TypeCode.STRING),
              FieldDescriptor.of("dec", TypeCode.DECIMAL),
              FieldDescriptor.of("z", TypeCode.INT32)));

  private static TraceEvent writeAndRead(EventMetadata m, byte[] payload) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (NetTraceWriter w = NetTraceWriter.create(out, SyntheticTraceTest.HEADER)) {
      w.writeEvent(m, 1, 1, 1, 0, 10, Guid.EMPTY, Guid.EMPTY, StackTrace.EMPTY, true, payload);
    }
    return SyntheticTraceTest.readAll(out.toByteArray()).get(0);
  }

  @Test
  void keepsTheFieldsDecodedBeforeTheProblem() {
    byte[] payload =
        ByteBuffer.allocate(16)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putInt(5)
            .putShort((short) -2)
            .putChar('x')
            .putChar('\0')
            .putInt(0xAB)
            .array();
    payload = Arrays.copyOf(payload, 14);
    TraceEvent e = writeAndRead(MIXED, payload);
    Map<String, Object> fields = EventFields.of(e).asMap();
    assertThat(fields.keySet())
        .containsExactly("a", "pt", "s", EventFields.UNDECODABLE, EventFields.PAYLOAD_HEX);
    assertThat(fields.get("a")).isEqualTo(5);
    assertThat(fields.get("pt")).isEqualTo(Map.of("x", (short) -2));
    assertThat(fields.get("s")).isEqualTo("x");
    assertThat((String) fields.get(EventFields.UNDECODABLE))
        .isEqualTo("expected 4 bytes of dec, only 0 left at payload offset 14");
    assertThat(fields.get(EventFields.PAYLOAD_HEX)).isEqualTo("05000000feff78000000ab000000");
    assertThat(e.decodeSelfDescribedPartially().asMap()).isEqualTo(fields);
    assertThatThrownBy(e::decodeSelfDescribed).isInstanceOf(NetTraceFormatException.class);
  }

  @Test
  void nativePayloadCutInsideAFieldIsMarked() {
    byte[] cut = Arrays.copyOf(SyntheticTraceTest.gcStartPayload(1), 6);
    TraceEvent e = writeAndRead(SyntheticTraceTest.GC_START, cut);
    assertThatThrownBy(() -> RuntimeEvents.decode(e)).isInstanceOf(NetTraceFormatException.class);
    Map<String, Object> fields = EventFields.of(e).asMap();
    assertThat(fields.keySet()).containsExactly(EventFields.UNDECODABLE, EventFields.PAYLOAD_HEX);
    assertThat((String) fields.get(EventFields.UNDECODABLE)).endsWith("at payload offset 4");
    assertThat(fields.get(EventFields.PAYLOAD_HEX)).isEqualTo("010000000200");
  }

  @Test
  void structuralErrorsStillFailTheReader() throws Exception {
    Path p = Path.of(PartialDecodingTest.class.getResource("/golden/golden.nettrace").toURI());
    byte[] data = Files.readAllBytes(p);
    byte[] cut = Arrays.copyOf(data, data.length - 1);
    assertThatThrownBy(
            () -> {
              try (NetTraceReader r = NetTraceReader.open(new ByteArrayInputStream(cut))) {
                TraceEvent e;
                while ((e = r.next()) != null) {
                  EventFields.of(e);
                }
              }
            })
        .isInstanceOf(NetTraceFormatException.class);
  }

  @Test
  void goldenEventsOtherwiseDecodeAsStrictly() throws URISyntaxException, Exception {
    for (TraceEvent e : golden()) {
      if (!e.metadata().fields().isEmpty() && !e.eventName().equals("DecimalEvent")) {
        assertThat(EventFields.of(e).asMap()).isEqualTo(e.decodeSelfDescribed().asMap());
      }
    }
  }
}
