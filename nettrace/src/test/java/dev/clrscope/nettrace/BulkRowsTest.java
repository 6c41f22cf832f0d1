package dev.clrscope.nettrace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimePayload;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The heap walk's bulk events read as columns ({@link RuntimeEvents.BulkNodes}, {@link
 * RuntimeEvents.BulkEdges}), on 64-bit and 32-bit traces, and the same rows as records; a count
 * that the payload does not hold fails cleanly; the roots' static fields and dependent handles
 * decoded typed.
 */
class BulkRowsTest {
  private static final EventMetadata NODES =
      new EventMetadata(1, RuntimeEvents.RUNTIME_PROVIDER, 18, "", 0, 0, 4, 0, List.of());
  private static final EventMetadata EDGES =
      new EventMetadata(2, RuntimeEvents.RUNTIME_PROVIDER, 19, "", 0, 0, 4, 0, List.of());
  private static final EventMetadata STATICS =
      new EventMetadata(3, RuntimeEvents.RUNTIME_PROVIDER, 38, "", 0, 0, 4, 0, List.of());
  private static final EventMetadata HANDLES =
      new EventMetadata(4, RuntimeEvents.RUNTIME_PROVIDER, 17, "", 0, 0, 4, 0, List.of());

  private static List<TraceEvent> read(int pointerSize, Object... metadataAndPayloads) {
    TraceHeader header =
        new TraceHeader(
            4,
            Instant.parse("2026-11-26T00:00:00Z"),
            1,
            1_000_000_000L,
            pointerSize,
            1,
            2,
            0,
            Map.of());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (NetTraceWriter w = NetTraceWriter.create(out, header)) {
      for (int i = 0; i < metadataAndPayloads.length; i += 2) {
        w.writeEvent(
            (EventMetadata) metadataAndPayloads[i],
            i + 1,
            1,
            1,
            0,
            10 + i,
            Guid.EMPTY,
            Guid.EMPTY,
            StackTrace.EMPTY,
            true,
            (byte[]) metadataAndPayloads[i + 1]);
      }
    }
    List<TraceEvent> events = new java.util.ArrayList<>();
    try (NetTraceReader r = NetTraceReader.open(new ByteArrayInputStream(out.toByteArray()))) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        events.add(e);
      }
    }
    return events;
  }

  private static ByteBuffer buffer() {
    return ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static byte[] bytes(ByteBuffer b) {
    return java.util.Arrays.copyOf(b.array(), b.position());
  }

  @Test
  void objectsAndReferencesAsColumnsAndAsRecordsAlike() {
    ByteBuffer n = buffer().putInt(7).putInt(3).putShort((short) 0);
    n.putLong(0x7f00_0000_1000L).putLong(24).putLong(0xAAA0).putLong(1);
    n.putLong(0x7f00_0000_1018L).putLong(0x1_0000_0000L).putLong(0xBBB0).putLong(0);
    n.putLong(0xFFFF_FFFF_FFFF_FFF8L).putLong(40).putLong(0xAAA0).putLong(2);
    ByteBuffer e = buffer().putInt(9).putInt(2).putShort((short) 0);
    e.putLong(0x7f00_0000_1018L).putInt(0).putLong(0x7f00_0000_1000L).putInt(5);
    List<TraceEvent> events = read(8, NODES, bytes(n), EDGES, bytes(e));

    RuntimeEvents.BulkNodes nodes = new RuntimeEvents.BulkNodes();
    nodes.read(events.get(0));
    assertThat(nodes.index()).isEqualTo(7);
    assertThat(nodes.count()).isEqualTo(3);
    assertThat(java.util.Arrays.copyOf(nodes.address(), 3))
        .containsExactly(0x7f00_0000_1000L, 0x7f00_0000_1018L, 0xFFFF_FFFF_FFFF_FFF8L);
    assertThat(java.util.Arrays.copyOf(nodes.size(), 3)).containsExactly(24, 0x1_0000_0000L, 40);
    assertThat(java.util.Arrays.copyOf(nodes.typeId(), 3)).containsExactly(0xAAA0, 0xBBB0, 0xAAA0);
    assertThat(java.util.Arrays.copyOf(nodes.edgeCount(), 3)).containsExactly(1, 0, 2);
    RuntimePayload.GcBulkNode record =
        (RuntimePayload.GcBulkNode) RuntimeEvents.decode(events.get(0)).orElseThrow();
    assertThat(record.values().get(2))
        .isEqualTo(new RuntimePayload.BulkNode(0xFFFF_FFFF_FFFF_FFF8L, 40, 0xAAA0, 2));

    RuntimeEvents.BulkEdges edges = new RuntimeEvents.BulkEdges();
    edges.read(events.get(1));
    assertThat(edges.index()).isEqualTo(9);
    assertThat(java.util.Arrays.copyOf(edges.target(), edges.count()))
        .containsExactly(0x7f00_0000_1018L, 0x7f00_0000_1000L);
    RuntimePayload.GcBulkEdge edgeRecord =
        (RuntimePayload.GcBulkEdge) RuntimeEvents.decode(events.get(1)).orElseThrow();
    assertThat(edgeRecord.values().get(1))
        .isEqualTo(new RuntimePayload.BulkEdge(0x7f00_0000_1000L, 5));
  }

  @Test
  void aThirtyTwoBitWalksPointersAreFourBytes() {
    ByteBuffer n = buffer().putInt(0).putInt(2).putShort((short) 0);
    n.putInt(0x8000_1000).putLong(12).putLong(0x44).putLong(1);
    n.putInt(0x8000_100C).putLong(16).putLong(0x48).putLong(0);
    ByteBuffer e = buffer().putInt(0).putInt(1).putShort((short) 0);
    e.putInt(0x8000_100C).putInt(0);
    List<TraceEvent> events = read(4, NODES, bytes(n), EDGES, bytes(e));
    RuntimeEvents.BulkNodes nodes = new RuntimeEvents.BulkNodes();
    nodes.read(events.get(0));
    // Unsigned: a 32-bit address above 2 GB stays positive.
    assertThat(java.util.Arrays.copyOf(nodes.address(), 2))
        .containsExactly(0x8000_1000L, 0x8000_100CL);
    assertThat(java.util.Arrays.copyOf(nodes.size(), 2)).containsExactly(12, 16);
    RuntimeEvents.BulkEdges edges = new RuntimeEvents.BulkEdges();
    edges.read(events.get(1));
    assertThat(edges.target()[0]).isEqualTo(0x8000_100CL);
  }

  @Test
  void aCountThePayloadDoesNotHoldFailsCleanly() {
    ByteBuffer n = buffer().putInt(0).putInt(3).putShort((short) 0);
    n.putLong(0x1000).putLong(24).putLong(1).putLong(0);
    n.putLong(0x1018).putLong(24).putLong(1).putLong(0);
    ByteBuffer e = buffer().putInt(0).putInt(Integer.MAX_VALUE).putShort((short) 0);
    e.putLong(0x1000).putInt(0);
    List<TraceEvent> events = read(8, NODES, bytes(n), EDGES, bytes(e));
    assertThatThrownBy(() -> new RuntimeEvents.BulkNodes().read(events.get(0)))
        .isInstanceOf(NetTraceFormatException.class)
        .hasMessageContaining("GCBulkNode values (3 items)");
    assertThatThrownBy(() -> new RuntimeEvents.BulkEdges().read(events.get(1)))
        .isInstanceOf(NetTraceFormatException.class);
    assertThatThrownBy(() -> new RuntimeEvents.BulkEdges().read(events.get(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a GCBulkEdge event");
  }

  @Test
  void staticFieldsAndDependentHandlesDecodedTyped() {
    ByteBuffer s = buffer().putInt(2).putLong(1).putShort((short) 0);
    s.putLong(0x5000).putLong(0x7f00_0000_1000L).putLong(0xAAA0).putInt(0);
    for (char c : "Held".toCharArray()) {
      s.putChar(c);
    }
    s.putChar('\0');
    s.putLong(0x5008).putLong(0x7f00_0000_2000L).putLong(0xBBB0).putInt(0).putChar('\0');
    ByteBuffer h = buffer().putInt(4).putInt(1).putShort((short) 0);
    h.putLong(0x7f00_0000_1000L).putLong(0x7f00_0000_2000L).putLong(0x9000);
    List<TraceEvent> events = read(8, STATICS, bytes(s), HANDLES, bytes(h));
    RuntimePayload.GcBulkRootStaticVar statics =
        (RuntimePayload.GcBulkRootStaticVar) RuntimeEvents.decode(events.get(0)).orElseThrow();
    assertThat(statics.values())
        .containsExactly(
            new RuntimePayload.BulkRootStaticVar(0x5000, 0x7f00_0000_1000L, 0xAAA0, 0, "Held"),
            new RuntimePayload.BulkRootStaticVar(0x5008, 0x7f00_0000_2000L, 0xBBB0, 0, ""));
    RuntimePayload.GcBulkRootCwt handles =
        (RuntimePayload.GcBulkRootCwt) RuntimeEvents.decode(events.get(1)).orElseThrow();
    assertThat(handles.index()).isEqualTo(4);
    assertThat(handles.values())
        .containsExactly(
            new RuntimePayload.BulkRootCwt(0x7f00_0000_1000L, 0x7f00_0000_2000L, 0x9000));
  }
}
