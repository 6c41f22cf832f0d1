package dev.clrscope.nettrace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The unordered visit counts what the ordered reader delivers: per provider, id and version the
 * events and payload bytes, the threads, the first and last timestamps, the dropped events, and how
 * reading ended (the same stop at the same point, the same counters), for V3 to V6 traces, every
 * truncation and seeded corruptions, with two decoding threads and with none; and it leaves no
 * decoding thread behind.
 */
class UnorderedVisitTest {

  /** Everything counted: the same fields as {@code trace stats} shows. */
  static final class Counts implements EventTally<Counts> {
    final Map<String, long[]> byType = new TreeMap<>();
    final Set<Long> threads = new HashSet<>();
    long events;
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;

    @Override
    public void event(EventMetadata m, long threadId, long timestamp, int payloadLength) {
      long[] c =
          byType.computeIfAbsent(
              m.providerName() + "/" + m.eventId() + "/" + m.version(), k -> new long[2]);
      c[0]++;
      c[1] += payloadLength;
      threads.add(threadId);
      events++;
      first = Math.min(first, timestamp);
      last = Math.max(last, timestamp);
    }

    @Override
    public void add(Counts block) {
      block.byType.forEach(
          (k, v) -> {
            long[] c = byType.computeIfAbsent(k, x -> new long[2]);
            c[0] += v[0];
            c[1] += v[1];
          });
      threads.addAll(block.threads);
      events += block.events;
      first = Math.min(first, block.first);
      last = Math.max(last, block.last);
    }

    @Override
    public void clear() {
      byType.clear();
      threads.clear();
      events = 0;
      first = Long.MAX_VALUE;
      last = Long.MIN_VALUE;
    }

    String describe() {
      StringBuilder sb = new StringBuilder();
      byType.forEach((k, v) -> sb.append(k).append('=').append(Arrays.toString(v)).append(' '));
      return sb.append("threads ")
          .append(new java.util.TreeSet<>(threads))
          .append(", events ")
          .append(events)
          .append(", span ")
          .append(first)
          .append("..")
          .append(last)
          .toString();
    }
  }

  private static String ending(
      long dropped, long complete, boolean reached, long trailing, String stopped) {
    return "dropped "
        + dropped
        + ", complete "
        + complete
        + ", reached "
        + reached
        + ", trailing "
        + trailing
        + ", stopped "
        + stopped;
  }

  /** What the ordered reader (parsing in place) delivers, counted. */
  private static String ordered(byte[] data, boolean lenient) {
    Counts c = new Counts();
    try (NetTraceReader r = NetTraceReader.open(new ByteArrayInputStream(data), lenient)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        c.event(e.metadata(), e.threadId(), e.timestamp(), e.payloadLength());
      }
      return c.describe()
          + "; "
          + ending(
              r.droppedEvents(),
              r.completeBytes(),
              r.reachedEnd(),
              r.trailingBytes(),
              r.stopReason().map(Throwable::getMessage).orElse("-"));
    } catch (NetTraceFormatException ex) {
      return "failed: " + ex.getMessage();
    }
  }

  private static String unordered(byte[] data, boolean lenient, int decoders) {
    try {
      UnorderedVisit<Counts> v =
          UnorderedVisit.of(new ByteArrayInputStream(data), lenient, Counts::new, decoders);
      return v.tally().describe()
          + "; "
          + ending(
              v.droppedEvents(),
              v.completeBytes(),
              v.reachedEnd(),
              v.trailingBytes(),
              v.stopReason().map(Throwable::getMessage).orElse("-"));
    } catch (NetTraceFormatException ex) {
      return "failed: " + ex.getMessage();
    }
  }

  private static void assertSame(byte[] data, boolean lenient) {
    String expected = ordered(data, lenient);
    assertThat(unordered(data, lenient, 2)).isEqualTo(expected);
    assertThat(unordered(data, lenient, 0)).isEqualTo(expected);
  }

  private static byte[] golden(String name) throws IOException {
    return Files.readAllBytes(Path.of("src/test/resources/golden", name));
  }

  /** A V4 trace written again as V6. */
  private static byte[] asV6(byte[] v4) {
    List<TraceEvent> events = new ArrayList<>();
    TraceHeader header;
    try (NetTraceReader r = NetTraceReader.open(new ByteArrayInputStream(v4))) {
      header = r.header();
      TraceEvent e;
      while ((e = r.next()) != null) {
        events.add(e);
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (NetTraceV6Writer w = NetTraceV6Writer.create(out, header)) {
      events.forEach(w::writeEvent);
    }
    return out.toByteArray();
  }

  private static List<byte[]> traces(Path dir) throws IOException {
    byte[] runtimeAll = golden("runtime-all.nettrace");
    byte[] trailing =
        Arrays.copyOf(golden("golden.nettrace"), golden("golden.nettrace").length + 5);
    return List.of(
        golden("golden.nettrace"),
        runtimeAll,
        trailing,
        Files.readAllBytes(Fixtures.perfview(Fixtures.ARRAY_TYPES)),
        Files.readAllBytes(Fixtures.perfview(Fixtures.CHECKPOINTS)),
        Files.readAllBytes(Fixtures.pyroscope(Fixtures.SAMPLE_PROFILER)),
        Files.readAllBytes(Fixtures.unzipNetperf(dir)),
        SyntheticTraceTest.synthesise(),
        asV6(golden("golden.nettrace")));
  }

  @Test
  void wholeTracesCountAlike(@TempDir Path dir) throws IOException {
    for (byte[] data : traces(dir)) {
      String expected = ordered(data, false);
      assertThat(expected).contains("reached true").doesNotContain("events 0,");
      assertThat(unordered(data, false, 2)).isEqualTo(expected);
      assertThat(unordered(data, false, 0)).isEqualTo(expected);
      assertThat(unordered(data, true, 2)).isEqualTo(ordered(data, true));
    }
  }

  @Test
  void everyTruncationEndsAlike() throws IOException {
    byte[] small = Files.readAllBytes(Fixtures.perfview(Fixtures.CHECKPOINTS));
    byte[] runtimeAll = golden("runtime-all.nettrace");
    assertTimeoutPreemptively(
        Duration.ofSeconds(120),
        () -> {
          for (int len = 0; len < small.length; len++) {
            byte[] prefix = Arrays.copyOf(small, len);
            assertSame(prefix, false);
            assertSame(prefix, true);
          }
          // A larger trace of many event blocks, cut at every few thousand bytes.
          for (int len = 0; len < runtimeAll.length; len += 2_999) {
            assertSame(Arrays.copyOf(runtimeAll, len), true);
          }
        });
  }

  @Test
  void seededCorruptionsEndAlike() throws IOException {
    byte[][] inputs = {
      golden("runtime-all.nettrace"),
      SyntheticTraceTest.synthesise(),
      asV6(golden("golden.nettrace"))
    };
    SplittableRandom random = new SplittableRandom(20261128);
    assertTimeoutPreemptively(
        Duration.ofSeconds(120),
        () -> {
          for (int round = 0; round < 450; round++) {
            byte[] data = inputs[round % inputs.length].clone();
            for (int k = 1 + random.nextInt(4); k > 0; k--) {
              int at = random.nextInt(data.length);
              data[at] = (byte) (data[at] ^ (1 << random.nextInt(8)));
            }
            assertSame(data, round % 2 == 0);
          }
        });
  }

  @Test
  void noDecodingThreadOutlivesAVisit() throws IOException {
    byte[] data = golden("runtime-all.nettrace");
    byte[] cut = Arrays.copyOf(data, data.length / 2);
    byte[] corrupt = data.clone();
    for (int at = data.length / 3; at < data.length / 3 + 64; at++) {
      corrupt[at] = (byte) 0xFF;
    }
    for (byte[] d : List.of(data, cut, corrupt)) {
      unordered(d, false, 2);
      unordered(d, true, 2);
    }
    assertThat(
            Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("clrscope-nettrace-decoder") && t.isAlive()))
        .isEmpty();
  }
}
