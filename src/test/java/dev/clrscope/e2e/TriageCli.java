package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the triage tests share: TriageApp started through a shell (so that the test JVM, its
 * parent's parent, never sees the pause as its child's stop), a core of it written by {@code
 * clrscope dump}, {@code clrscope triage} run on either in JSON, and its findings picked by kind.
 */
final class TriageCli {
  static final String APP = "TriageApp";
  static final Duration TIMEOUT = Duration.ofMinutes(3);

  private TriageCli() {}

  /** TriageApp under a shell, with {@code env} added to this JVM's environment. */
  static TargetProcess start(Map<String, String> env) {
    return start(APP, env);
  }

  /** One of the test apps under a shell, with {@code env} added to this JVM's environment. */
  static TargetProcess start(String app, Map<String, String> env) {
    List<String> command = new ArrayList<>();
    command.add("sh");
    command.add("-c");
    // An asynchronous command's stdin is /dev/null unless redirected: hand it the shell's.
    command.add("exec 3<&0; \"$0\" \"$@\" <&3 3<&- & wait $!");
    command.addAll(DotnetApps.command(app, List.of()));
    return TargetProcess.startCommand(app, command, env);
  }

  /** A full core of the app, written by {@code clrscope dump}. */
  static Path dump(TargetProcess app, Path file) {
    CliResult r =
        Clrscope.run(
            TIMEOUT,
            "dump",
            "-p",
            Long.toString(app.ready().pid()),
            "--type",
            "full",
            "-o",
            file.toString());
    assertThat(r.exitCode()).as("%s", r).isZero();
    return file;
  }

  /** {@code clrscope triage ARGS --symbol-server none}. */
  static CliResult run(String... args) {
    List<String> all = new ArrayList<>(List.of("triage"));
    all.addAll(List.of(args));
    all.addAll(List.of("--symbol-server", "none"));
    return Clrscope.run(TIMEOUT, all.toArray(String[]::new));
  }

  /** The JSON report of {@code triage ARGS --format json}; fails unless it exited 0. */
  static JsonNode json(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--format", "json"));
    CliResult r = run(all.toArray(String[]::new));
    assertThat(r.exitCode()).as("%s", r).isZero();
    return r.stdoutJson();
  }

  /** The JSON report of a live process, read at once (no watch). */
  static JsonNode live(TargetProcess app, String... more) {
    List<String> args = new ArrayList<>(List.of("-p", Long.toString(app.ready().pid())));
    args.add("--no-watch");
    args.addAll(List.of(more));
    return json(args.toArray(String[]::new));
  }

  /** The findings of a kind. */
  static List<JsonNode> findings(JsonNode report, String kind) {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode f : report.get("findings")) {
      if (f.get("kind").asText().equals(kind)) {
        out.add(f);
      }
    }
    return out;
  }

  /** The one finding of a kind; fails when there is not exactly one. */
  static JsonNode finding(JsonNode report, String kind) {
    List<JsonNode> found = findings(report, kind);
    assertThat(found).as("%s findings in %s", kind, report.toPrettyString()).hasSize(1);
    return found.get(0);
  }

  /** A fact of a finding's evidence. */
  static JsonNode fact(JsonNode finding, String name) {
    JsonNode v = finding.get("evidence").get("facts").get(name);
    assertThat(v).as("fact %s of %s", name, finding.toPrettyString()).isNotNull();
    return v;
  }

  /** Whether a list of frames holds {@code method} at {@code file}:{@code line}. */
  static boolean hasFrame(JsonNode frames, String method, String file, int line) {
    for (JsonNode f : frames) {
      if (f.get("method").asText().equals(method)
          && f.path("file").asText("").endsWith("/" + file)
          && f.path("line").asInt() == line) {
        return true;
      }
    }
    return false;
  }

  /** The kinds of a report's findings, in order. */
  static List<String> kinds(JsonNode report) {
    List<String> kinds = new ArrayList<>();
    report.get("findings").forEach(f -> kinds.add(f.get("kind").asText()));
    return kinds;
  }
}
