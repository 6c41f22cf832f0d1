package dev.clrscope.e2e;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * What one run of the CLI left behind. {@link #toString()} shows all of it, so {@code
 * assertThat(result.exitCode()).as("%s", result)} explains a failure without a rerun.
 */
public record CliResult(int exitCode, String stdout, String stderr) {

  /** Stdout split into lines, without line terminators. */
  public List<String> stdoutLines() {
    return stdout.lines().toList();
  }

  /** Stdout parsed as one JSON document; fails with this result in the message if it is not. */
  public JsonNode stdoutJson() {
    try {
      return TargetProcess.JSON.readTree(stdout);
    } catch (JsonProcessingException e) {
      throw new AssertionError("stdout is not JSON: " + e.getOriginalMessage() + "\n" + this, e);
    }
  }

  @Override
  public String toString() {
    return "clrscope exited with code "
        + exitCode
        + "\n--- stdout ---\n"
        + stdout
        + (stdout.isEmpty() || stdout.endsWith("\n") ? "" : "\n")
        + "--- stderr ---\n"
        + stderr;
  }
}
