package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code clrscope dump}: a core file written by the runtime's createdump. */
class DumpCommandTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  @TempDir Path dir;

  @Test
  void heapDumpIsAnElfCoreFileOrAPtraceMessage() throws IOException {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      target.send("hold Widget 1000");
      Path core = dir.resolve("target.core");

      CliResult result =
          Clrscope.run(
              TIMEOUT,
              "dump",
              "-p",
              Long.toString(target.pid()),
              "--type",
              "heap",
              "-o",
              core.toString());

      if (result.exitCode() == 0) {
        assertThat(result.stdout().strip()).isEqualTo(core.toString());
        byte[] head = new byte[18];
        try (InputStream in = Files.newInputStream(core)) {
          assertThat(in.readNBytes(head, 0, head.length)).isEqualTo(head.length);
        }
        // ELF magic, then e_type (offset 16) 4 = ET_CORE.
        assertThat(head[0]).isEqualTo((byte) 0x7F);
        assertThat(new String(head, 1, 3, java.nio.charset.StandardCharsets.US_ASCII))
            .isEqualTo("ELF");
        assertThat(head[16]).isEqualTo((byte) 4);
        assertThat(Files.size(core)).isGreaterThan(1024 * 1024);
        // The target survives being dumped.
        assertThat(target.send("ping").get("event").asText()).isEqualTo("pong");
      } else {
        // Machines that forbid ptrace: one line that says what to fix.
        assertThat(result.exitCode()).as("%s", result).isEqualTo(1);
        assertThat(result.stderr().lines()).hasSize(1);
        assertThat(result.stderr()).contains("ptrace");
      }
    }
  }

  @Test
  void miniDumpWithACrashReportNamesTheApp() throws IOException {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      Path core = dir.resolve("mini.core");

      CliResult result =
          Clrscope.run(
              TIMEOUT,
              "dump",
              "-p",
              Long.toString(target.pid()),
              "--type",
              "mini",
              "--crashreport",
              "-o",
              core.toString());

      assertThat(result.exitCode()).as("%s", result).isZero();
      assertThat(result.stdout().strip()).isEqualTo(core.toString());
      Path report = dir.resolve("mini.core.crashreport.json");
      com.fasterxml.jackson.databind.JsonNode json = TargetProcess.JSON.readTree(report.toFile());
      assertThat(json.at("/payload/process_name").asText()).isEqualTo("TargetApp.dll");
      assertThat(json.at("/payload/threads").size()).isPositive();
    }
  }

  @Test
  void aMissingOutputDirectoryIsReportedBeforeAnythingIsAsked() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      Path missing = dir.resolve("no/such/dir/core");

      CliResult result =
          Clrscope.run(
              TIMEOUT, "dump", "-p", Long.toString(target.pid()), "-o", missing.toString());

      assertThat(result.exitCode()).as("%s", result).isEqualTo(1);
      assertThat(result.stderr().strip())
          .isEqualTo(
              "clrscope dump: the directory "
                  + missing.getParent()
                  + " does not exist: create it or choose another -o");
    }
  }

  @Test
  void anUnknownDumpTypeIsAUsageError() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      CliResult result =
          Clrscope.run(TIMEOUT, "dump", "-p", Long.toString(target.pid()), "--type", "huge");

      assertThat(result.exitCode()).as("%s", result).isEqualTo(2);
      assertThat(result.stderr().lines().findFirst().orElseThrow())
          .isEqualTo("clrscope dump: --type takes full, heap, mini or triage, got 'huge'");
    }
  }
}
