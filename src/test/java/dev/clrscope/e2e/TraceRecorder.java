package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Records a trace of a TargetApp with {@code clrscope trace collect} while it runs a command. */
final class TraceRecorder {
  private TraceRecorder() {}

  /**
   * Records {@code file} (with {@code options}, such as a profile) while {@code target} runs {@code
   * command}, stopping the trace with Ctrl+C once it answered; returns its answer.
   */
  static JsonNode collect(
      TargetProcess target, Path file, String command, Duration timeout, String... options) {
    List<String> args = new ArrayList<>(List.of("trace", "collect", "-p"));
    args.add(Long.toString(target.pid()));
    args.addAll(List.of(options));
    args.addAll(List.of("--duration", "90s", "-o", file.toString()));
    try (RunningCli cli = Clrscope.start(Map.of(), file.getParent(), args.toArray(String[]::new))) {
      cli.awaitStderrLine(l -> l.contains("Press Enter or Ctrl+C"), timeout);
      JsonNode answer = target.send(command, timeout);
      cli.interrupt();
      CliResult result = cli.await(timeout);
      assertThat(result.exitCode()).as("%s", result).isZero();
      return answer;
    }
  }
}
