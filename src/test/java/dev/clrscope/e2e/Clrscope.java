package dev.clrscope.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Runs the real clrscope CLI the way a user does: through the launcher script {@code
 * <clrscope.root>/clrscope}, as a separate process, with its output captured.
 *
 * <p>Every method fails the test (with {@link AssertionError}) when the CLI cannot be started or
 * outlives its timeout; a non-zero exit code is not a failure here, it is part of the {@link
 * CliResult} for the test to assert on.
 */
public final class Clrscope {
  /** The timeout {@link #run(String...)} allows; long enough for a cold JVM on a busy machine. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  private Clrscope() {}

  /**
   * The repository root: the {@code clrscope.root} system property (set by failsafe), else the
   * working directory, or its grandparent when a test runs from {@code src/test} in an IDE.
   */
  public static Path root() {
    String property = System.getProperty("clrscope.root");
    if (property != null && !property.isBlank()) {
      return Path.of(property).toAbsolutePath().normalize();
    }
    Path workingDir = Path.of("").toAbsolutePath();
    if (workingDir.endsWith(Path.of("src", "test"))) {
      return workingDir.getParent().getParent();
    }
    return workingDir;
  }

  /** The launcher script; fails if it does not exist yet. */
  public static Path launcher() {
    Path launcher = root().resolve("clrscope");
    if (!Files.isRegularFile(launcher)) {
      throw new AssertionError(
          "The clrscope launcher "
              + launcher
              + " does not exist. It runs cli/target/clrscope.jar; build that with `mvn package`.");
    }
    return launcher;
  }

  /** Runs {@code clrscope args...} with {@link #DEFAULT_TIMEOUT}. */
  public static CliResult run(String... args) {
    return run(DEFAULT_TIMEOUT, args);
  }

  /** Runs {@code clrscope args...} in the repository root with this JVM's environment. */
  public static CliResult run(Duration timeout, String... args) {
    return run(timeout, Map.of(), root(), args);
  }

  /**
   * Runs {@code clrscope args...}.
   *
   * @param env variables to set on top of this JVM's environment; a {@code null} value removes the
   *     variable
   * @param workingDir the directory the CLI runs in
   */
  public static CliResult run(
      Duration timeout, Map<String, String> env, Path workingDir, String... args) {
    return run(launcher(), timeout, env, workingDir, args);
  }

  /**
   * Starts {@code clrscope args...} without waiting for it, for commands that run until stopped (or
   * that launch a target app whose output the test wants to watch). Close the result.
   */
  public static RunningCli start(Map<String, String> env, Path workingDir, String... args) {
    return start(launcher(), env, workingDir, args);
  }

  static CliResult run(
      Path launcher, Duration timeout, Map<String, String> env, Path workingDir, String... args) {
    try (RunningCli cli = start(launcher, env, workingDir, args)) {
      return cli.await(timeout);
    }
  }

  static RunningCli start(Path launcher, Map<String, String> env, Path workingDir, String... args) {
    return new RunningCli(Subprocess.start(command(launcher, args), env, workingDir));
  }

  /** The command line that runs the launcher with {@code args}, for a test's own ProcessBuilder. */
  static List<String> command(String... args) {
    return command(launcher(), args);
  }

  private static List<String> command(Path launcher, String... args) {
    List<String> command = new ArrayList<>();
    // Run through sh when the executable bit is missing (e.g. a checkout that lost it).
    if (!Files.isExecutable(launcher)) {
      command.add("sh");
    }
    command.add(launcher.toString());
    command.addAll(Arrays.asList(args));
    return command;
  }
}
