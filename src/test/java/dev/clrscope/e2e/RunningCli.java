package dev.clrscope.e2e;

import java.io.EOFException;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;

/**
 * A clrscope process started by {@link Clrscope#start} that the test watches while it runs: wait
 * for a line of its output, type into its stdin, press Ctrl-C, then collect the {@link CliResult}.
 * Closing it kills whatever is still running, including apps the CLI launched.
 */
public final class RunningCli implements AutoCloseable {
  private final Subprocess cli;

  RunningCli(Subprocess cli) {
    this.cli = cli;
  }

  public long pid() {
    return cli.process().pid();
  }

  public Process process() {
    return cli.process();
  }

  /**
   * Waits for the next stdout line that {@code match} accepts, skipping (but keeping, see {@link
   * #stdout()}) the lines before it. Fails if the CLI exits or the timeout passes first.
   */
  public String awaitLine(Predicate<String> match, Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    while (true) {
      Duration left = Duration.between(Instant.now(), deadline);
      try {
        String line = cli.nextLine(left.isNegative() ? Duration.ZERO : left);
        if (match.test(line)) {
          return line;
        }
      } catch (EOFException e) {
        cli.waitFor(Duration.ofSeconds(5));
        throw new AssertionError("clrscope ended stdout before the awaited line: " + describe());
      } catch (TimeoutException e) {
        throw new AssertionError("No awaited line within " + timeout + ": " + describe());
      }
    }
  }

  /**
   * Waits for the ready line of a TargetApp the CLI launched: a launched app's output comes on
   * clrscope's stderr (its stdout holds clrscope's data alone).
   */
  public ReadyInfo awaitReady(Duration timeout) {
    String line =
        awaitStderr(Pattern.compile("^(\\{\"event\":\"ready\".*)$", Pattern.MULTILINE), timeout);
    return ReadyInfo.tryParse(line).orElseThrow();
  }

  private int stderrLinesTaken;

  /**
   * Waits for the next stderr line that {@code match} accepts (a line a launched app printed: its
   * output comes on clrscope's stderr), after the lines an earlier call took.
   */
  public String awaitStderrLine(Predicate<String> match, Duration timeout) {
    String[] found = new String[1];
    Awaitility.await()
        .atMost(timeout)
        .until(
            () -> {
              List<String> lines = stderr().lines().toList();
              for (int i = stderrLinesTaken; i < lines.size(); i++) {
                if (match.test(lines.get(i))) {
                  stderrLinesTaken = i + 1;
                  found[0] = lines.get(i);
                  return true;
                }
              }
              return false;
            });
    return found[0];
  }

  /** Writes a line to the CLI's stdin (which it may pass on to an app it launched). */
  public void sendLine(String line) {
    cli.writeLine(line);
  }

  public void closeStdin() {
    cli.closeStdin();
  }

  /**
   * Sends SIGINT, as Ctrl-C in a terminal would, to the CLI's JVM. The launcher script's shell, if
   * it did not {@code exec} java, would not pass the signal on, so the JVM is looked up among its
   * children; apps the CLI launched are not signalled (a terminal would signal them too, but tests
   * want to see what the CLI does with them).
   */
  public void interrupt() {
    signal("INT");
  }

  /** Sends signal {@code name} (INT, TERM, KILL) to the CLI's JVM, as {@link #interrupt} does. */
  public void signal(String name) {
    ProcessHandle jvm =
        isJava(cli.process().toHandle())
            ? cli.process().toHandle()
            : cli.process().children().filter(RunningCli::isJava).findFirst().orElse(null);
    if (jvm == null) {
      throw new AssertionError("Found no java process to signal: " + describe());
    }
    try {
      Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(jvm.pid())).start();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new AssertionError("kill -" + name + " " + jvm.pid() + " failed: " + describe());
      }
    } catch (IOException e) {
      throw new AssertionError("Could not run kill -" + name + " " + jvm.pid(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("Interrupted while signalling " + jvm.pid(), e);
    }
  }

  private static boolean isJava(ProcessHandle process) {
    Optional<String> command = process.info().command();
    return command.isPresent()
        && (command.get().endsWith("/java") || command.get().endsWith("\\java.exe"));
  }

  /** Waits for the CLI to exit; kills it (and what it started) and fails if it does not in time. */
  public CliResult await(Duration timeout) {
    cli.closeStdin();
    if (!cli.waitFor(timeout)) {
      cli.killTree();
      cli.waitFor(Duration.ofSeconds(5));
      throw new AssertionError("clrscope did not exit within " + timeout + ": " + describe());
    }
    return new CliResult(cli.process().exitValue(), cli.stdout(), cli.stderr());
  }

  /** Everything the CLI printed to stdout so far. */
  /**
   * Waits until stderr matches {@code pattern} (what the CLI says on stderr, such as the address it
   * serves on) and returns the match's first group.
   */
  public String awaitStderr(Pattern pattern, Duration timeout) {
    String[] group = new String[1];
    Awaitility.await()
        .atMost(timeout)
        .until(
            () -> {
              Matcher m = pattern.matcher(stderr());
              if (m.find()) {
                group[0] = m.group(1);
                return true;
              }
              return false;
            });
    return group[0];
  }

  public String stdout() {
    return cli.stdout();
  }

  /** Everything the CLI printed to stderr so far. */
  public String stderr() {
    return cli.stderr();
  }

  private String describe() {
    return cli.describe();
  }

  @Override
  public void close() {
    cli.close();
  }
}
