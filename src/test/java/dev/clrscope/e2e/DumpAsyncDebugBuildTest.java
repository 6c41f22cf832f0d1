package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code analyze}'s {@code dumpasync} on a debug build's async methods (DebugAsyncApp, compiled
 * without optimisation: each state machine is a class the box references, not a struct inside it),
 * live and on a core: both suspended methods, their state, what each awaits and which continues
 * after which; and the same boxes and states as the real dotnet-dump's {@code dumpasync}.
 */
class DumpAsyncDebugBuildTest {
  private static final String APP = "DebugAsyncApp";

  @RegisterExtension static final TriageRun run = TriageRun.of("pending").onApp(APP);
  private static TargetProcess app;
  private static JsonNode facts;
  private static Path core;

  @BeforeAll
  static void start() {
    app = run.app();
    facts = run.facts();
    assertThat(facts.get("stateMachineIsClass").asBoolean()).isTrue();
    assertThat(facts.get("completed").asBoolean()).isFalse();
    core = run.core();
  }

  private static Map<String, JsonNode> methods(String source) {
    List<String> target =
        source.equals("live") ? AnalyzeCli.pid(app.ready().pid()) : AnalyzeCli.core(core);
    Map<String, JsonNode> byMethod = new HashMap<>();
    AnalyzeCli.one(target, "dumpasync").forEach(m -> byMethod.put(m.get("method").asText(), m));
    return byMethod;
  }

  @ParameterizedTest
  @ValueSource(strings = {"live", "core"})
  void bothSuspendedMethodsWhatEachAwaitsAndWhatContinues(String source) {
    Map<String, JsonNode> m = methods(source);
    String outerName = facts.get("outerMethod").asText();
    String innerName = facts.get("innerMethod").asText();
    assertThat(m).containsKeys(outerName, innerName);
    JsonNode outer = m.get(outerName);
    JsonNode inner = m.get(innerName);
    assertThat(outer.get("stateMachine").asText())
        .startsWith("DebugAsyncApp.Program+<OuterAsync>d__");
    assertThat(inner.get("stateMachine").asText())
        .startsWith("DebugAsyncApp.Program+<InnerAsync>d__");
    assertThat(outer.get("state").asInt()).isZero();
    assertThat(inner.get("state").asInt()).isZero();
    assertThat(outer.get("status").asText()).isEqualTo("WaitingForActivation");
    // The outer method awaits the inner one's box, which continues the outer one.
    assertThat(outer.get("awaiting").asText()).isEqualTo(inner.get("address").asText());
    assertThat(inner.get("continuation").asText()).isEqualTo(outer.get("address").asText());
  }

  @Test
  void theSameBoxesAndStatesAsDotnetDump() {
    String theirs = DotnetDump.analyze(core, "dumpasync");
    // "  00007fd00d8648d0 00007fdbe8bda370 (0) DebugAsyncApp.Program+<InnerAsync>d__4"
    Pattern row = Pattern.compile("([0-9a-f]{16}) [0-9a-f]{16} \\((-?\\d+)\\) (DebugAsyncApp\\S+)");
    Map<String, String[]> byType = new HashMap<>();
    Matcher mt = row.matcher(theirs);
    while (mt.find()) {
      byType.put(
          mt.group(3), new String[] {"0x" + mt.group(1).replaceFirst("^0+", ""), mt.group(2)});
    }
    assertThat(byType).as(theirs).hasSize(2);
    for (JsonNode m : methods("core").values()) {
      String[] same = byType.get(m.get("stateMachine").asText());
      if (same == null) {
        continue;
      }
      assertThat(m.get("address").asText()).isEqualTo(same[0]);
      assertThat(m.get("state").asInt()).isEqualTo(Integer.parseInt(same[1]));
      byType.remove(m.get("stateMachine").asText());
    }
    assertThat(byType).as("dotnet-dump's methods clrscope did not list").isEmpty();
  }
}
