package dev.clrscope.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.ipc.client.DumpType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RulesFileTest {
  @TempDir Path dir;

  private Path file(String json) throws Exception {
    Path f = dir.resolve("rules.json");
    Files.writeString(f, json);
    return f;
  }

  @Test
  void readsTheDocumentedExampleWithItsDefaults() throws Exception {
    List<CollectionRule> rules =
        RulesFile.read(
            file(
                "{\"rules\": [\n"
                    + "  {\"name\": \"queue-backlog\", \"process\": \"CountersApp\",\n"
                    + "   \"provider\": \"Clrscope.Demo\", \"counter\": \"clrscope.demo.queue.length\",\n"
                    + "   \"above\": 40, \"for\": \"5s\", \"collect\": \"gcdump\",\n"
                    + "   \"into\": \"/var/tmp/a\", \"coolDown\": \"10m\"},\n"
                    + "  {\"counter\": \"cpu-usage\", \"below\": 1.5, \"collect\": \"dump\","
                    + " \"type\": \"WithHeap\"},\n"
                    + "  {\"counter\": \"cpu-usage\", \"above\": 80, \"collect\": \"trace\","
                    + " \"duration\": 20, \"profile\": \"cpu-sampling\"}]}"));
    assertThat(rules)
        .containsExactly(
            new CollectionRule(
                "queue-backlog",
                "CountersApp",
                "Clrscope.Demo",
                "clrscope.demo.queue.length",
                true,
                40,
                Duration.ofSeconds(5),
                CollectionRule.Kind.GCDUMP,
                Duration.ofSeconds(30),
                null,
                DumpType.HEAP,
                Path.of("/var/tmp/a"),
                Duration.ofMinutes(10)),
            new CollectionRule(
                "rule2",
                null,
                "System.Runtime",
                "cpu-usage",
                false,
                1.5,
                Duration.ZERO,
                CollectionRule.Kind.DUMP,
                Duration.ofSeconds(30),
                null,
                DumpType.HEAP,
                null,
                Duration.ofMinutes(10)),
            new CollectionRule(
                "rule3",
                null,
                "System.Runtime",
                "cpu-usage",
                true,
                80,
                Duration.ZERO,
                CollectionRule.Kind.TRACE,
                Duration.ofSeconds(20),
                "cpu-sampling",
                DumpType.HEAP,
                null,
                Duration.ofMinutes(10)));
    assertThat(rules.get(0).condition()).isEqualTo("clrscope.demo.queue.length above 40 for 5 s");
  }

  @Test
  void eachMistakeNamesTheFileTheFieldAndWhatItTakes() throws Exception {
    String rule = "{\"counter\": \"c\", \"above\": 1, \"collect\": \"gcdump\"";
    expect(
        "{\"rules\": [" + rule + ", \"abov\": 2}]}",
        "rules[0]: unknown field 'abov' (a rule takes above, below, collect,");
    expect(
        "{\"rules\": [{\"counter\": \"c\", \"collect\": \"gcdump\"}]}",
        "rules[0]: give exactly one of \"above\" and \"below\"");
    expect(
        "{\"rules\": [{\"counter\": \"c\", \"above\": \"x\", \"collect\": \"gcdump\"}]}",
        "rules[0].above must be a number, got 'x'");
    expect(
        "{\"rules\": [" + rule + ", \"for\": \"5 parsecs\"}]}",
        "rules[0].for takes seconds (30), or 500ms, 30s, 10m, 1h, up to 1440 min; got '5 parsecs'");
    expect(
        "{\"rules\": [{\"counter\": \"c\", \"above\": 1, \"collect\": \"heap\"}]}",
        "rules[0].collect takes trace, gcdump or dump; got 'heap'");
    expect(
        "{\"rules\": [" + rule + ", \"type\": \"mini\"}]}",
        "rules[0]: \"type\" is for \"collect\": \"dump\"");
    expect(
        "{\"rules\": [{\"above\": 1, \"collect\": \"gcdump\"}]}",
        "rules[0]: \"counter\" is required (the instrument's name");
    expect(
        "{\"rules\": [" + rule + ", \"name\": \"a\"}, " + rule + ", \"name\": \"a\"}]}",
        "rules[1].name: 'a' names another rule too");
    expect("{\"rules\": []}", "\"rules\" is empty");
    expect("[1]", "the file must be one object {\"rules\": [ ... ]}");
    expect("{\"rules\": [" + rule + "}]", "not JSON at line 1");
    expect(
        "{\"rules\": [" + rule + ", \"coolDown\": -5}]}", "rules[0].coolDown takes seconds (30)");
  }

  private void expect(String json, String message) throws Exception {
    Path f = file(json);
    assertThatThrownBy(() -> RulesFile.read(f))
        .isInstanceOf(RulesFile.Invalid.class)
        .hasMessageStartingWith(f + ": ")
        .hasMessageContaining(message);
  }
}
