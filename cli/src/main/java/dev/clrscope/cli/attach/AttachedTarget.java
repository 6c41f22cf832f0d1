package dev.clrscope.cli.attach;

import dev.clrscope.ipc.client.DiagnosticsClient;
import dev.clrscope.ipc.launch.LaunchClock;

/**
 * A runtime clrscope is attached to, however it was reached. Commands talk to {@link #client()},
 * then call {@link #release()} so that a runtime waiting at startup continues, then return {@link
 * #exitCode(int)}.
 */
public interface AttachedTarget extends AutoCloseable {
  /** The client for the target's runtime. */
  DiagnosticsClient client();

  /** The pid as seen from here, or -1 if unknown (a runtime that connected to our port). */
  long pid();

  /** "process PID", or, when the pid is unknown, the endpoint: for messages. */
  default String describe() {
    return pid() > 0 ? "process " + pid() : "the runtime on " + endpoint();
  }

  /**
   * When a child clrscope launched reached each step of its start, once it is released; {@code
   * null} for any other target.
   */
  default LaunchClock launchClock() {
    return null;
  }

  /** The endpoint used, for messages and for {@code info}. */
  String endpoint();

  /**
   * Lets a runtime that waits at startup continue: a launched child, or a runtime on a diagnostic
   * port. Does nothing for a running process.
   */
  void release();

  /**
   * The exit code for the command: for a launched child, waits for it and passes its code through;
   * otherwise returns {@code own}.
   */
  int exitCode(int own);

  /**
   * A stop signal the user sent clrscope ({@code SIGINT}, {@code SIGTERM}): a launched child gets
   * it too, and then at most {@link dev.clrscope.ipc.launch.LaunchedTarget#GRACE} to exit. Other
   * targets are not clrscope's to stop.
   */
  default void passOn(String signal) {}

  /**
   * Ends a launched child that still runs once the command's work is done ({@code why}: its {@code
   * --duration} ran out), as dotnet-trace does: SIGTERM, then at most {@link
   * dev.clrscope.ipc.launch.LaunchedTarget#GRACE} before it is killed. Other targets are not
   * clrscope's to stop. The command's exit code is then its own, not the app's.
   */
  default void endLaunched(String why) {}

  @Override
  void close();
}
