package dev.clrscope.nettrace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.nettrace.events.EventFields;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimePayload;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Golden trace, through {@link NetTraceWriter}, read back: every field of every event equal. */
class RoundTripTest {

  @ParameterizedTest
  @ValueSource(strings = {Fixtures.ARRAY_TYPES, Fixtures.CHECKPOINTS, Fixtures.SAMPLE_PROFILER})
  void goldenTraceRoundTripsFieldByField(String name) {
    Path golden =
        name.equals(Fixtures.SAMPLE_PROFILER) ? Fixtures.pyroscope(name) : Fixtures.perfview(name);
    List<TraceEvent> original = new ArrayList<>();
    TraceHeader header;
    long dropped;
    try (NetTraceReader r = NetTraceReader.open(golden)) {
      header = r.header();
      TraceEvent e;
      while ((e = r.next()) != null) {
        original.add(e);
      }
      dropped = r.droppedEvents();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (NetTraceWriter w = NetTraceWriter.create(out, header)) {
      for (TraceEvent e : original) {
        w.writeEvent(e);
      }
    }
    List<TraceEvent> copy = new ArrayList<>();
    try (NetTraceReader r = NetTraceReader.open(new ByteArrayInputStream(out.toByteArray()))) {
      assertThat(r.header()).isEqualTo(header);
      TraceEvent e;
      while ((e = r.next()) != null) {
        copy.add(e);
      }
      assertThat(r.droppedEvents()).isEqualTo(dropped);
    }
    assertThat(copy).hasSameSizeAs(original);
    for (int i = 0; i < original.size(); i++) {
      assertSameEvent(copy.get(i), original.get(i), i);
    }
  }

  static void assertSameEvent(TraceEvent a, TraceEvent b, int i) {
    String at = "event " + i + " " + b;
    assertThat(a.metadata()).as(at).isEqualTo(b.metadata());
    assertThat(a.sequenceNumber()).as(at).isEqualTo(b.sequenceNumber());
    assertThat(a.threadId()).as(at).isEqualTo(b.threadId());
    assertThat(a.captureThreadId()).as(at).isEqualTo(b.captureThreadId());
    assertThat(a.processorNumber()).as(at).isEqualTo(b.processorNumber());
    assertThat(a.timestamp()).as(at).isEqualTo(b.timestamp());
    assertThat(a.timeUtc()).as(at).isEqualTo(b.timeUtc());
    assertThat(a.activityId()).as(at).isEqualTo(b.activityId());
    assertThat(a.relatedActivityId()).as(at).isEqualTo(b.relatedActivityId());
    assertThat(a.stack()).as(at).isEqualTo(b.stack());
    assertThat(a.isSorted()).as(at).isEqualTo(b.isSorted());
    assertThat(a.copyPayload()).as(at).isEqualTo(b.copyPayload());
    assertThat(EventFields.of(a).asMap()).as(at).isEqualTo(EventFields.of(b).asMap());
  }

  @org.junit.jupiter.api.Test
  void sampleProfilerTraceHasStacksAndRundownMethods() {
    int samples = 0;
    int withStack = 0;
    int methods = 0;
    try (NetTraceReader r = NetTraceReader.open(Fixtures.pyroscope(Fixtures.SAMPLE_PROFILER))) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        var typed = RuntimeEvents.decode(e);
        if (typed.isPresent() && typed.get() instanceof RuntimePayload.ThreadSample s) {
          samples++;
          assertThat(s.type()).isIn(1L, 2L);
          if (e.stack().depth() > 0) {
            withStack++;
          }
        }
        if (typed.isPresent() && typed.get() instanceof RuntimePayload.MethodLoadVerbose m) {
          methods++;
          assertThat(m.methodName()).isNotEmpty();
        }
      }
      assertThat(r.sequencePoints()).isPositive();
    }
    assertThat(samples).isEqualTo(5564);
    assertThat(withStack).isEqualTo(samples);
    assertThat(methods).isEqualTo(104);
  }

  @org.junit.jupiter.api.Test
  void headerFieldsOfGoldenTrace() {
    try (NetTraceReader r = NetTraceReader.open(Fixtures.perfview(Fixtures.CHECKPOINTS))) {
      TraceHeader h = r.header();
      assertThat(h.formatVersion()).isEqualTo(4);
      assertThat(h.pointerSize()).isEqualTo(8);
      assertThat(h.processId()).isEqualTo(9832);
      assertThat(h.processorCount()).isEqualTo(8);
      assertThat(h.qpcFrequency()).isEqualTo(10_000_000L);
      assertThat(h.syncTimeUtc().toString()).isEqualTo("2021-06-09T09:48:25.902Z");
      TraceEvent e = r.next();
      assertThat(e.timeUtc()).isEqualTo(h.syncTimeUtc().plusNanos(h.relativeNanos(e.timestamp())));
      assertThat(EventFields.of(e).asMap())
          .containsEntry("Name", "RuntimeInit")
          .containsEntry("Timestamp", 11_111_925_598_665L);
      assertThat(Map.copyOf(EventFields.of(e).asMap())).hasSize(3);
    }
  }
}
