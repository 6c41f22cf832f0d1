package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code clrscope triage} given what it cannot read: one line saying what to do, exit 1 for the
 * target, 2 for the command line; nothing read before the options are checked.
 */
class TriageBadInputTest {
  @Test
  void aFileThatIsNoCoreIsOneLineAndExit1(@TempDir Path dir) throws Exception {
    Path text = Files.writeString(dir.resolve("notes.txt"), "not a core\n");
    CliResult r = TriageCli.run(text.toString());
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    assertThat(r.stderr().lines().toList()).as("%s", r).hasSize(1);
    assertThat(r.stderr()).startsWith("clrscope triage: ").contains(text.toString());
    CliResult missing = TriageCli.run(dir.resolve("gone.core").toString());
    assertThat(missing.exitCode()).as("%s", missing).isEqualTo(1);
    assertThat(missing.stderr()).contains("does not exist");
  }

  @Test
  void aProcessThatIsNotDotnetIsOneLineAndExit1() throws Exception {
    Process sleep = new ProcessBuilder("sleep", "60").start();
    try {
      CliResult r = TriageCli.run("-p", Long.toString(sleep.pid()), "--no-watch");
      assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
      assertThat(r.stderr()).startsWith("clrscope triage: ");
      assertThat(sleep.isAlive()).isTrue();
    } finally {
      sleep.destroyForcibly();
    }
  }

  @Test
  void usageErrorsAreExit2(@TempDir Path dir) {
    String core = dir.resolve("a.core").toString();
    for (List<String> args :
        List.of(
            List.<String>of(),
            List.of(core, core, core),
            List.of("-p", "1", "-n", "x"),
            List.of(core, "--leak-share", "0"),
            List.of(core, "--fail-on", "fatal"),
            List.of(core, core, "--no-heap"))) {
      CliResult r = TriageCli.run(args.toArray(String[]::new));
      assertThat(r.exitCode()).as("%s: %s", args, r).isEqualTo(2);
    }
  }

  @Test
  void anHtmlFileThatCannotBeWrittenIsSaidBeforeTheCoreIsRead(@TempDir Path dir) {
    CliResult r =
        TriageCli.run(
            dir.resolve("a.core").toString(),
            "--html",
            dir.resolve("no/such/dir/r.html").toString());
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    assertThat(r.stderr()).contains("does not exist: create it or choose another --html");
  }
}
