package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs {@code clrscope analyze} the way a script does: a target (a core file, {@code -p PID}),
 * commands with {@code -c}, JSON out (one document per command, one per line), and reads the
 * documents back.
 */
final class AnalyzeCli {
  static final Duration TIMEOUT = Duration.ofMinutes(3);

  private AnalyzeCli() {}

  /** The arguments that name a core file. */
  static List<String> core(java.nio.file.Path core) {
    return List.of(core.toString());
  }

  /** The arguments that name a live process. */
  static List<String> pid(long pid) {
    return List.of("-p", Long.toString(pid));
  }

  /** {@code clrscope analyze TARGET -c C1 -c C2 ... --format FORMAT}, never downloading a DAC. */
  static CliResult run(List<String> target, String format, String... commands) {
    List<String> args = new ArrayList<>();
    args.add("analyze");
    args.addAll(target);
    for (String c : commands) {
      args.add("-c");
      args.add(c);
    }
    args.addAll(List.of("--format", format, "--symbol-server", "none"));
    return Clrscope.run(TIMEOUT, args.toArray(String[]::new));
  }

  /** The JSON documents of the commands, one a line; fails unless it exited 0. */
  static List<JsonNode> json(List<String> target, String... commands) {
    CliResult r = run(target, "json", commands);
    assertThat(r.exitCode()).as("%s", r).isZero();
    List<JsonNode> docs = documents(r);
    assertThat(docs).as("one document per command: %s", r).hasSize(commands.length);
    return docs;
  }

  /** The JSON document of one command. */
  static JsonNode one(List<String> target, String command) {
    return json(target, command).get(0);
  }

  /** Each stdout line as a JSON document. */
  static List<JsonNode> documents(CliResult r) {
    List<JsonNode> docs = new ArrayList<>();
    for (String line : r.stdoutLines()) {
      try {
        docs.add(TargetProcess.JSON.readTree(line));
      } catch (JsonProcessingException e) {
        throw new AssertionError("not a JSON document: " + line + "\n" + r, e);
      }
    }
    return docs;
  }

  /** The elements of an array, by the text of one member. */
  static Map<String, JsonNode> byKey(JsonNode array, String key) {
    Map<String, JsonNode> map = new HashMap<>();
    for (JsonNode n : array) {
      map.put(n.get(key).asText(), n);
    }
    return map;
  }

  /** An address in the JSON form ({@code "0x7f..."}) as a number. */
  static long address(JsonNode text) {
    String t = text.asText();
    assertThat(t).startsWith("0x");
    return Long.parseUnsignedLong(t.substring(2), 16);
  }

  /** {@code 0x...}. */
  static String hex(long address) {
    return "0x" + Long.toHexString(address);
  }
}
