package dev.clrscope.nettrace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.nettrace.events.EventFields;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reproduces TraceEvent's baselines: every per-type count, and every decoded field of the first
 * event of each type. TraceEvent renders flag fields as names ("Manifest, ReadyToRunModule"); those
 * are not numbers, so they are counted as symbolic and not compared.
 */
class BaselineTest {
  private static final Pattern ATTRIBUTE = Pattern.compile("(\\w+)=\\s*\"([^\"]*)\"");

  /** Header attributes that are not payload fields. */
  private static final List<String> NOT_FIELDS =
      List.of(
          "MSec",
          "PID",
          "PName",
          "TID",
          "EventName",
          "ProviderName",
          "ActivityID",
          "RelatedActivityID");

  record Expected(String key, int count, Map<String, String> attributes) {}

  record Observed(int count, TraceEvent first) {}

  @Test
  void arrayTypesTraceMatchesBaseline() throws IOException {
    int compared = check(Fixtures.perfview(Fixtures.ARRAY_TYPES), Fixtures.ARRAY_TYPES);
    assertThat(compared).isGreaterThan(60);
  }

  @Test
  void executionCheckpointsTraceMatchesBaseline() throws IOException {
    int compared = check(Fixtures.perfview(Fixtures.CHECKPOINTS), Fixtures.CHECKPOINTS);
    assertThat(compared).isGreaterThanOrEqualTo(3);
  }

  @Test
  void netperfV3TraceMatchesBaseline(@TempDir Path tmp) throws IOException {
    Path trace = Fixtures.unzipNetperf(tmp);
    int compared = check(trace, "eventpipe-dotnetcore2.1-linux-x64-objver3.netperf");
    assertThat(compared).isGreaterThan(30);
    try (NetTraceReader r = NetTraceReader.open(trace)) {
      assertThat(r.header().formatVersion()).isEqualTo(3);
      assertThat(r.header().pointerSize()).isEqualTo(8);
      assertThat(r.header().processId()).isEqualTo(80749);
    }
  }

  /** Returns how many individual values were compared. */
  private static int check(Path trace, String baselineName) throws IOException {
    List<Expected> expected = readBaseline(Fixtures.perfview(baselineName + ".baseline.txt"));
    Map<String, Observed> observed = new HashMap<>();
    long total = 0;
    try (NetTraceReader r = NetTraceReader.open(trace)) {
      TraceEvent e;
      long previous = Long.MIN_VALUE;
      while ((e = r.next()) != null) {
        assertThat(e.timestamp()).as("timestamp order").isGreaterThanOrEqualTo(previous);
        previous = e.timestamp();
        String key = e.providerName() + "/" + RuntimeEvents.displayName(e);
        if (e.metadata().opcode() != 0) {
          key += "/" + e.metadata().opcode();
        }
        Observed o = observed.get(key);
        observed.put(key, o == null ? new Observed(1, e) : new Observed(o.count() + 1, o.first()));
        total++;
      }
      assertThat(r.droppedEvents()).isZero();
      int compared = 0;
      for (Expected x : expected) {
        Observed o = observed.get(x.key());
        assertThat(o).as("event type %s present", x.key()).isNotNull();
        assertThat(o.count()).as("count of %s", x.key()).isEqualTo(x.count());
        compared += compareFirst(x, o.first(), r.header());
      }
      assertThat(total).isPositive();
      return compared;
    }
  }

  private static int compareFirst(Expected x, TraceEvent e, TraceHeader h) {
    Map<String, String> a = x.attributes();
    assertThat(e.relativeMillis())
        .as("MSec of %s", x.key())
        .isCloseTo(
            Double.parseDouble(a.get("MSec").trim()), org.assertj.core.data.Offset.offset(0.0001));
    assertThat(e.threadId()).as("TID of %s", x.key()).isEqualTo(Long.parseLong(a.get("TID")));
    assertThat(h.processId()).isEqualTo(Integer.parseInt(a.get("PID")));
    if (a.containsKey("ActivityID")) {
      assertThat(e.activityId().toString().replace("-", ""))
          .isEqualToIgnoringCase(a.get("ActivityID"));
    }
    Map<String, Object> fields = new HashMap<>();
    EventFields.of(e).asMap().forEach((k, v) -> fields.put(k.toLowerCase(Locale.ROOT), v));
    int compared = 3;
    for (Map.Entry<String, String> attr : a.entrySet()) {
      if (NOT_FIELDS.contains(attr.getKey())) {
        continue;
      }
      Object ours = fields.get(attr.getKey().toLowerCase(Locale.ROOT));
      assertThat(ours)
          .as("field %s of %s (have %s)", attr.getKey(), x.key(), fields.keySet())
          .isNotNull();
      if (matches(ours, attr.getValue(), x.key() + "." + attr.getKey())) {
        compared++;
      }
    }
    return compared;
  }

  /** Returns false for symbolic values (flag names) that were not compared. */
  private static boolean matches(Object ours, String theirs, String what) {
    if (ours instanceof List<?> list) {
      if (!list.isEmpty() && list.get(0) instanceof Character) {
        StringBuilder sb = new StringBuilder();
        list.forEach(c -> sb.append((char) (Character) c));
        assertThat(sb.toString()).as(what).isEqualTo(theirs);
        return true;
      }
      String inner = theirs.substring(1, theirs.length() - 1);
      String[] parts = inner.isEmpty() ? new String[0] : inner.split(",");
      assertThat(list).as(what).hasSize(parts.length);
      for (int i = 0; i < parts.length; i++) {
        assertThat(matches(list.get(i), parts[i], what + "[" + i + "]")).isTrue();
      }
      return true;
    }
    if (ours instanceof Number n && !(ours instanceof Double) && !(ours instanceof Float)) {
      String t = theirs.replace(",", "").trim();
      BigInteger expected;
      if (t.startsWith("0x")) {
        expected = new BigInteger(t.substring(2), 16);
      } else if (t.matches("-?\\d+")) {
        expected = new BigInteger(t);
      } else {
        return false;
      }
      long v = n.longValue();
      // Baselines print u64 values unsigned and signed fields signed; accept either reading.
      boolean equal =
          expected.equals(BigInteger.valueOf(v))
              || expected.equals(new BigInteger(Long.toUnsignedString(v)));
      assertThat(equal).as("%s: ours %s, baseline %s", what, v, theirs).isTrue();
      return true;
    }
    assertThat(String.valueOf(ours)).as(what).isEqualToIgnoringCase(theirs);
    return true;
  }

  static List<Expected> readBaseline(Path p) throws IOException {
    List<Expected> out = new ArrayList<>();
    for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
      line = line.replace("\uFEFF", "");
      if (line.isBlank()) {
        continue;
      }
      int c1 = line.indexOf(", ");
      int c2 = line.indexOf(", ", c1 + 2);
      String key = line.substring(0, c1);
      int count = Integer.parseInt(line.substring(c1 + 2, c2));
      Map<String, String> attrs = new LinkedHashMap<>();
      Matcher m = ATTRIBUTE.matcher(line.substring(c2 + 2));
      while (m.find()) {
        attrs.put(m.group(1), m.group(2));
      }
      out.add(new Expected(key, count, attrs));
    }
    assertThat(out).isNotEmpty();
    return out;
  }

  @Test
  void baselineParserReadsAllLines() throws IOException {
    List<Expected> x = readBaseline(Fixtures.perfview(Fixtures.ARRAY_TYPES + ".baseline.txt"));
    Map<String, Integer> counts = new TreeMap<>();
    x.forEach(e -> counts.put(e.key(), e.count()));
    assertThat(counts)
        .containsEntry("Microsoft-Windows-DotNETRuntimeRundown/Loader/ModuleDCStop", 33)
        .hasSize(11);
  }
}
