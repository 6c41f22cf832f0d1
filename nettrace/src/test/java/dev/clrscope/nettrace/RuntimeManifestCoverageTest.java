package dev.clrscope.nettrace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clrscope.nettrace.events.EventFields;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimeManifest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every native runtime event in the golden traces is named and decoded from the runtime's manifest
 * ({@link RuntimeManifest}): no {@code EventN}, no empty view of a non-empty payload, no byte left
 * over or missing, and the names are TraceEvent's.
 */
class RuntimeManifestCoverageTest {
  private static final String[] PROVIDERS = {
    RuntimeEvents.RUNTIME_PROVIDER,
    RuntimeEvents.RUNDOWN_PROVIDER,
    "Microsoft-Windows-DotNETRuntimePrivate",
    "Microsoft-Windows-DotNETRuntimeStress"
  };

  private static Path golden(String name) throws Exception {
    return Path.of(RuntimeManifestCoverageTest.class.getResource("/golden/" + name).toURI());
  }

  private static List<Path> traces() throws Exception {
    List<Path> traces = new ArrayList<>();
    traces.add(golden("runtime-all.nettrace"));
    traces.add(golden("golden.nettrace"));
    Path fixtures = Fixtures.root();
    traces.add(fixtures.resolve("perfview/eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace"));
    traces.add(
        fixtures.resolve("perfview/eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace"));
    traces.add(fixtures.resolve("pyroscope/dotnet-5.0-SampleProfiler-single-thread.nettrace"));
    return traces;
  }

  private static boolean isNative(TraceEvent e) {
    if (!e.metadata().fields().isEmpty()) {
      return false;
    }
    for (String p : PROVIDERS) {
      if (p.equals(e.providerName())) {
        return true;
      }
    }
    return false;
  }

  /** Provider/id/version to our name, over every trace. */
  private static Map<String, String> namesSeen(Path trace) throws Exception {
    Map<String, String> names = new TreeMap<>();
    try (NetTraceReader r = NetTraceReader.open(trace)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        if (!isNative(e)) {
          continue;
        }
        String at =
            trace.getFileName() + " " + e.providerName() + "/" + e.eventId() + "v" + e.version();
        assertThat(RuntimeEvents.declaration(e)).as(at).isPresent();
        String name = RuntimeEvents.displayName(e);
        assertThat(name).as(at).isNotEmpty().doesNotStartWith("Event");
        Map<String, Object> fields = EventFields.of(e).asMap();
        assertThat(fields)
            .as(at + " " + fields)
            .doesNotContainKeys(EventFields.UNDECODABLE, EventFields.UNKNOWN_TAIL);
        if (e.payloadLength() > 0) {
          assertThat(fields).as(at).isNotEmpty();
        }
        names.put(e.providerName() + "/" + e.eventId() + "/" + e.version(), name);
      }
    }
    return names;
  }

  @Test
  void everyNativeEventOfTheGoldenTracesIsNamedAndDecodedExactly() throws Exception {
    int kinds = 0;
    for (Path trace : traces()) {
      kinds += namesSeen(trace).size();
    }
    // runtime-all alone has 68 kinds of native event.
    assertThat(kinds).isGreaterThan(68);
  }

  @Test
  void namesAreTraceEventsOwn() throws Exception {
    Map<String, String> ours = namesSeen(golden("runtime-all.nettrace"));
    JsonNode te =
        new ObjectMapper().readTree(golden("runtime-all.traceevent.json").toFile()).get("byEvent");
    int compared = 0;
    for (JsonNode n : te) {
      String key =
          n.get("provider").asText()
              + "/"
              + n.get("eventId").asInt()
              + "/"
              + n.get("version").asInt();
      String theirs = n.get("name").asText();
      if (!ours.containsKey(key) || theirs.startsWith("EventID(")) {
        // Not a native event, or one TraceEvent cannot name (then ours comes from the manifest).
        continue;
      }
      assertThat(ours.get(key)).as(key).isEqualTo(theirs);
      compared++;
    }
    assertThat(compared).isGreaterThan(60);
  }

  @Test
  void theTableHasEveryProviderAndItsEventsAreWellFormed() {
    for (String p : PROVIDERS) {
      List<RuntimeManifest.Event> events = RuntimeManifest.events(p);
      assertThat(events).as(p).isNotEmpty();
      for (RuntimeManifest.Event d : events) {
        assertThat(d.name()).as(d.symbol()).doesNotContain(" ").isNotEmpty();
      }
    }
    assertThat(RuntimeManifest.lookup(RuntimeEvents.RUNTIME_PROVIDER, 1, 2).orElseThrow().name())
        .isEqualTo("GC/Start");
    assertThat(
            RuntimeManifest.lookup(RuntimeEvents.RUNTIME_PROVIDER, 1, 99).orElseThrow().version())
        .isEqualTo(2);
  }
}
