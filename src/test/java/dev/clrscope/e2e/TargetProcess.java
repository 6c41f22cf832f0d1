package dev.clrscope.e2e;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.EOFException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * A .NET app from {@link DotnetApps} running as a child of the test JVM ({@code dotnet <dll>
 * args...}), started and waited on until it printed its ready line, then steered by command lines
 * on its stdin, each answered by one JSON line on its stdout.
 *
 * <p>Every failure (the app exits early, answers with an error, or takes too long) is an {@link
 * AssertionError} carrying all the app printed. Close it: that kills the app and any process it
 * started.
 */
public final class TargetProcess implements AutoCloseable {
  /** How long {@link #start} waits for the ready line: a cold runtime start on a busy machine. */
  public static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

  /** How long {@link #send(String)} waits for the answer. */
  public static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);

  static final ObjectMapper JSON = new ObjectMapper();

  private final String app;
  private final Subprocess target;
  private final ReadyInfo ready;

  private TargetProcess(String app, Subprocess target) {
    this.app = app;
    this.target = target;
    try {
      this.ready = ReadyInfo.fromJson(nextEvent(READY_TIMEOUT));
    } catch (AssertionError e) {
      // The caller gets no handle to close, so nothing may outlive a failed start.
      target.close();
      throw e;
    }
  }

  /** Starts {@code dotnet <app dll> args...} and waits for its ready line. */
  public static TargetProcess start(String app, String... args) {
    return start(app, Arrays.asList(args), Map.of());
  }

  /**
   * Starts {@code dotnet <app dll> args...} with this JVM's environment plus {@code extraEnv} (a
   * {@code null} value removes a variable) and waits for its ready line.
   */
  public static TargetProcess start(String app, List<String> args, Map<String, String> extraEnv) {
    return new TargetProcess(app, Subprocess.start(DotnetApps.command(app, args), extraEnv, null));
  }

  /** Starts {@code app} on {@code runtime} with {@code args} and waits for its ready line. */
  public static TargetProcess start(Runtime runtime, String app, String... args) {
    return start(runtime, app, Arrays.asList(args), Map.of());
  }

  /**
   * Starts {@code app} on {@code runtime} ({@link Runtime#command}) with this JVM's environment
   * plus {@code extraEnv}, and waits for its ready line, which must name that runtime.
   */
  public static TargetProcess start(
      Runtime runtime, String app, List<String> args, Map<String, String> extraEnv) {
    return onRuntime(runtime, app, runtime.command(app, args), extraEnv);
  }

  /**
   * {@link #start(Runtime, String, List, Map)}, the app a child of a shell rather than of this JVM
   * (whose process reaper waits on its children): for tests that pause it with ptrace ({@code
   * analyze -p}). {@link #pid()} is then the shell's: the app's is {@code ready().pid()}.
   */
  public static TargetProcess startUnwaited(
      Runtime runtime, String app, List<String> args, Map<String, String> extraEnv) {
    List<String> command = new java.util.ArrayList<>();
    command.add("sh");
    command.add("-c");
    // An asynchronous command's stdin is /dev/null unless redirected: hand it the shell's.
    command.add("exec 3<&0; \"$0\" \"$@\" <&3 3<&- & wait $!");
    command.addAll(runtime.command(app, args));
    return onRuntime(runtime, app, command, extraEnv);
  }

  private static TargetProcess onRuntime(
      Runtime runtime, String app, List<String> command, Map<String, String> extraEnv) {
    TargetProcess p =
        new TargetProcess(
            app + " on .NET " + runtime.major(), Subprocess.start(command, extraEnv, null));
    if (!p.ready.runtimeVersion().startsWith(runtime.major() + ".")) {
      p.close();
      throw new AssertionError(
          app + " for " + runtime + " runs on .NET " + p.ready.runtimeVersion());
    }
    return p;
  }

  /**
   * Starts an arbitrary command that runs a TargetApp build (such as a renamed copy of its apphost)
   * and waits for its ready line.
   *
   * @param label a name for messages
   */
  public static TargetProcess startCommand(
      String label, List<String> command, Map<String, String> extraEnv) {
    return new TargetProcess(label, Subprocess.start(command, extraEnv, null));
  }

  /** What the app said about itself when it became ready. */
  public ReadyInfo ready() {
    return ready;
  }

  public Process process() {
    return target.process();
  }

  /** The pid of the started process, which under {@code dotnet <dll>} is the app's own. */
  public long pid() {
    return target.process().pid();
  }

  /** Sends one command line and returns its answer, waiting {@link #ANSWER_TIMEOUT}. */
  public JsonNode send(String command) {
    return send(command, ANSWER_TIMEOUT);
  }

  /**
   * Sends one command line and returns its answer. An {@code {"event":"error"}} answer (unknown
   * command, bad argument) fails.
   */
  public JsonNode send(String command, Duration timeout) {
    target.writeLine(command);
    JsonNode answer = nextEvent(timeout);
    if ("error".equals(answer.path("event").asText())) {
      throw new AssertionError(
          app + " rejected '" + command + "': " + answer.path("message").asText());
    }
    return answer;
  }

  /**
   * The next JSON line the app prints without being asked, such as the {@code exit} event of {@code
   * --exit-after-ms}. Lines that are not JSON are skipped.
   */
  public JsonNode nextEvent(Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    while (true) {
      Duration left = Duration.between(Instant.now(), deadline);
      String line;
      try {
        line = target.nextLine(left.isNegative() ? Duration.ZERO : left);
      } catch (EOFException e) {
        target.waitFor(Duration.ofSeconds(5));
        throw new AssertionError(app + " ended its output before the next event: " + describe());
      } catch (TimeoutException e) {
        throw new AssertionError(app + " printed no event within " + timeout + ": " + describe());
      }
      if (!line.startsWith("{")) {
        continue;
      }
      try {
        return JSON.readTree(line);
      } catch (JsonProcessingException e) {
        throw new AssertionError(app + " printed a line that is not JSON: " + line, e);
      }
    }
  }

  /** Closes the app's stdin; TargetApp exits with 0 on that. */
  public void closeStdin() {
    target.closeStdin();
  }

  /** Waits for the app to exit and returns its exit code; fails (after killing it) on timeout. */
  public int waitFor(Duration timeout) {
    if (!target.waitFor(timeout)) {
      target.killTree();
      throw new AssertionError(app + " did not exit within " + timeout + ": " + describe());
    }
    return target.process().exitValue();
  }

  /** Everything the app printed to stdout so far, answers included. */
  public String stdout() {
    return target.stdout();
  }

  /** Everything the app printed to stderr so far. */
  public String stderr() {
    return target.stderr();
  }

  private String describe() {
    return target.describe();
  }

  /** Kills the app and its descendants if still running, and reads its output to the end. */
  @Override
  public void close() {
    target.close();
  }

  @Override
  public String toString() {
    return app + " (pid " + pid() + ")";
  }
}
