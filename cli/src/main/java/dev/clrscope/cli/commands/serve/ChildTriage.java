package dev.clrscope.cli.commands.serve;

import dev.clrscope.serve.DumpTriage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Triages a rule's dump in a process of its own: this clrscope's JVM and jar, {@code triage CORE
 * --format json}. The DAC that reads a core is native code; a crash in it ends that process, never
 * serve, and what a core costs in memory is that process's.
 */
final class ChildTriage implements DumpTriage {
  /** How long one triage may take (a core of tens of millions of objects takes about a minute). */
  static final long TIMEOUT_SECONDS = 600;

  @Override
  public byte[] report(Path core) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(
        List.of(
            "-XX:+UseSerialGC",
            // The launcher's options for heap graphs (the clrscope script says why).
            "-XX:PretenureSizeThreshold=1m",
            "-XX:InitialRAMPercentage=3",
            "-XX:NewRatio=8",
            "-XX:-UsePerfData",
            "-Dfile.encoding=UTF-8",
            "-Dsun.stdout.encoding=UTF-8",
            "-cp",
            System.getProperty("java.class.path"),
            dev.clrscope.cli.Main.class.getName(),
            "triage",
            core.toString(),
            "--format",
            "json"));
    Process p = new ProcessBuilder(command).redirectInput(new java.io.File("/dev/null")).start();
    // Stdout is the report; stderr (a line on failure) is read on another thread, never blocking
    // it.
    StringBuilder err = new StringBuilder();
    Thread errors =
        new Thread(
            () -> {
              try {
                err.append(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
              } catch (IOException e) {
                // The process is gone: its exit code says enough.
              }
            },
            "clrscope-serve-triage-stderr");
    errors.setDaemon(true);
    errors.start();
    byte[] report = p.getInputStream().readAllBytes();
    try {
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("triage took more than " + TIMEOUT_SECONDS + " s");
      }
      errors.join(5_000);
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    if (p.exitValue() != 0) {
      String why = err.toString().strip();
      throw new IOException(
          why.isEmpty()
              ? "triage exited with " + p.exitValue()
              : why.lines().reduce((a, b) -> b).get());
    }
    return report;
  }
}
