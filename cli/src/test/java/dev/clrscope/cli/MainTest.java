package dev.clrscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Exit codes and messages of usage errors and other paths that need no target. */
class MainTest {
  private static CliRun run(String... args) {
    return CliRun.of(args);
  }

  @Test
  void noCommandIsAUsageError() {
    CliRun r = run();
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith("clrscope: choose a command")
        .contains(System.lineSeparator() + "clrscope [-hvV]");
    assertThat(r.err()).contains("Try 'clrscope --help' for more information.");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void anSosCommandTypedAsClrscopesAsksWhetherAnalyzeWasMeant() {
    CliRun r = run("dumpheap", "-stat");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith("clrscope: Unmatched argument")
        .contains("Did you mean `clrscope analyze CORE -c \"dumpheap -stat\"` (or -p PID")
        .contains("dumpheap is a command of analyze's prompt");
    // A word that is no SOS command gets no such hint.
    assertThat(run("frobnicate").err()).doesNotContain("Did you mean");
  }

  @Test
  void unknownCommandIsAUsageError() {
    CliRun r = run("frobnicate");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).startsWith("clrscope: ").contains("frobnicate");
    assertThat(r.err()).contains("Try 'clrscope --help' for more information.");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void infoWithoutTargetAsksForOne() {
    CliRun r = run("info");
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
    CliRun r = run("info", "-p", "1", "-n", "x");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith(
            "clrscope info: choose one target only: -p, -n, --diagnostic-port and -- COMMAND"
                + " exclude each other");
  }

  @Test
  void infoWithABadDiagnosticPortIsAUsageError() {
    CliRun r = run("info", "--diagnostic-port", ",bogus");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith(
            "clrscope info: --diagnostic-port needs a socket path, as PATH, PATH,listen or"
                + " PATH,connect");
    CliRun tag = run("info", "--diagnostic-port", "/tmp/p,bogus");
    assertThat(tag.exit()).isEqualTo(2);
    assertThat(tag.err()).startsWith("clrscope info: unknown --diagnostic-port mode 'bogus'");
  }

  @Test
  void infoWithBadNumbersIsAUsageError() {
    CliRun zeroTimeout = run("info", "-p", "1", "--timeout", "0");
    assertThat(zeroTimeout.exit()).isEqualTo(2);
    assertThat(zeroTimeout.err())
        .startsWith("clrscope info: --timeout must be a positive number of seconds, got 0");
    CliRun zeroPid = run("info", "-p", "0");
    assertThat(zeroPid.exit()).isEqualTo(2);
    assertThat(zeroPid.err())
        .startsWith(
            "clrscope info: Invalid value for option '--process-id': a process id is a number from"
                + " 1 to 2147483647 in digits 0-9, got '0'");
    CliRun notANumber = run("info", "-p", "abc");
    assertThat(notANumber.exit()).isEqualTo(2);
    assertThat(notANumber.err()).startsWith("clrscope info: ").contains("'abc'");
  }

  @Test
  void missingProcessIsATargetErrorOnOneLine() {
    // Above the largest pid_max Linux allows (2^22), so no such process can exist.
    CliRun r = run("info", "-p", "4194305");
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
    CliRun r = run("--version");
    assertThat(r.exit()).isZero();
    assertThat(ClrscopeVersion.version()).isNotEqualTo("unknown").doesNotContain("${");
    assertThat(r.out().lines().findFirst()).contains("clrscope " + ClrscopeVersion.version());
    assertThat(r.out()).contains("Java " + System.getProperty("java.version"));
    assertThat(r.err()).isEmpty();
  }

  @Test
  void helpListsTheCommandsAndExitCodes() {
    CliRun r = run("--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("info", "ps", "dump", "Exit codes: 0 success");
  }
}
