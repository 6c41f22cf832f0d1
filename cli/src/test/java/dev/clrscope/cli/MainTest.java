package dev.clrscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Exit codes and messages of usage errors and other paths that need no target. */
class MainTest {
  /** Exit code, stdout and stderr of one run. */
  record Run(int exit, String out, String err) {}

  private static synchronized Run run(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      exit = Main.run(args);
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
    return new Run(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void noCommandIsAUsageError() {
    Run r = run();
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith("clrscope: choose a command")
        .contains(System.lineSeparator() + "clrscope [-hvV]");
    assertThat(r.err()).contains("Try 'clrscope --help' for more information.");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void unknownCommandIsAUsageError() {
    Run r = run("frobnicate");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).startsWith("clrscope: ").contains("frobnicate");
    assertThat(r.err()).contains("Try 'clrscope --help' for more information.");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void infoWithoutTargetAsksForOne() {
    Run r = run("info");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith(
            "clrscope info: choose a target: -p PID, -n NAME, --diagnostic-port PATH, or --"
                + " COMMAND [ARGS] (`clrscope ps` lists .NET processes)")
        .contains(System.lineSeparator() + "clrscope info [-hvV]")
        .contains("Try 'clrscope info --help' for more information.");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void infoWithTwoTargetsIsAUsageError() {
    Run r = run("info", "-p", "1", "-n", "x");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith(
            "clrscope info: choose one target only: -p, -n, --diagnostic-port and -- COMMAND"
                + " exclude each other");
  }

  @Test
  void infoWithABadDiagnosticPortIsAUsageError() {
    Run r = run("info", "--diagnostic-port", ",bogus");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith(
            "clrscope info: --diagnostic-port needs a socket path, as PATH, PATH,listen or"
                + " PATH,connect");
    Run tag = run("info", "--diagnostic-port", "/tmp/p,bogus");
    assertThat(tag.exit()).isEqualTo(2);
    assertThat(tag.err()).startsWith("clrscope info: unknown --diagnostic-port mode 'bogus'");
  }

  @Test
  void infoWithBadNumbersIsAUsageError() {
    Run zeroTimeout = run("info", "-p", "1", "--timeout", "0");
    assertThat(zeroTimeout.exit()).isEqualTo(2);
    assertThat(zeroTimeout.err())
        .startsWith("clrscope info: --timeout must be a positive number of seconds, got 0");
    Run zeroPid = run("info", "-p", "0");
    assertThat(zeroPid.exit()).isEqualTo(2);
    assertThat(zeroPid.err())
        .startsWith(
            "clrscope info: Invalid value for option '--process-id': a process id is a number from"
                + " 1 to 2147483647 in digits 0-9, got '0'");
    Run notANumber = run("info", "-p", "abc");
    assertThat(notANumber.exit()).isEqualTo(2);
    assertThat(notANumber.err()).startsWith("clrscope info: ").contains("'abc'");
  }

  @Test
  void missingProcessIsATargetErrorOnOneLine() {
    // Above the largest pid_max Linux allows (2^22), so no such process can exist.
    Run r = run("info", "-p", "4194305");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo(
            "clrscope info: no process with pid 4194305 is running; `clrscope ps` lists .NET"
                + " processes"
                + System.lineSeparator());
    assertThat(r.out()).isEmpty();
  }

  @Test
  void versionPrintsTheBuildVersion() {
    Run r = run("--version");
    assertThat(r.exit()).isZero();
    assertThat(ClrscopeVersion.version()).isNotEqualTo("unknown").doesNotContain("${");
    assertThat(r.out().lines().findFirst()).contains("clrscope " + ClrscopeVersion.version());
    assertThat(r.out()).contains("Java " + System.getProperty("java.version"));
    assertThat(r.err()).isEmpty();
  }

  @Test
  void helpListsTheCommandsAndExitCodes() {
    Run r = run("--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("info", "ps", "dump", "Exit codes: 0 success");
  }
}
