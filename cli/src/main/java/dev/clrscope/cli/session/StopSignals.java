package dev.clrscope.cli.session;

import dev.clrscope.cli.output.StandardOutput;
import dev.clrscope.monitor.session.StopSwitch;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The user's ways to stop a long-running command, wired to a session's {@link StopSwitch}: Ctrl+C,
 * SIGTERM, Enter on a terminal, and standard output closing under it ({@code | head}). The first
 * signal asks for a clean stop (StopTracing, rundown, file closed); a second one asks to abandon
 * what is left (the rundown) while still leaving valid output. Signal handlers, rather than
 * shutdown hooks, keep the JVM alive for the clean stop.
 */
public final class StopSignals implements AutoCloseable {
  private final StopSwitch stop;
  private final AtomicInteger signals = new AtomicInteger();
  private final Runnable outputClosed;
  private final Consumer<String> passOn;

  private StopSignals(StopSwitch stop, Consumer<String> passOn) {
    this.stop = stop;
    this.passOn = passOn;
    this.outputClosed = () -> stop.request("standard output was closed");
  }

  /**
   * Starts watching.
   *
   * @param stop what the signals and Enter ask to stop
   * @param watchEnter stop when Enter is pressed (only when stdin is a terminal)
   * @param passOn gets each signal's name too (a launched child is sent the user's Ctrl+C as well)
   */
  // Java 17's System.console() is null exactly when stdin or stdout is not a terminal.
  @SuppressWarnings("SystemConsoleNull")
  public static StopSignals install(StopSwitch stop, boolean watchEnter, Consumer<String> passOn) {
    StopSignals s = new StopSignals(stop, passOn);
    // Where the platform has no TERM (Windows), Ctrl+C still works through INT.
    for (String name : new String[] {"INT", "TERM"}) {
      Signals.handle(name, () -> s.signal("SIG" + name));
    }
    // A reader that went away (| head) or a full disk ends the session as a signal would.
    StandardOutput.onFailure(s.outputClosed);
    if (watchEnter && System.console() != null) {
      Thread enterWatcher = new Thread(() -> s.watchEnter(System.in), "clrscope-enter");
      enterWatcher.setDaemon(true);
      enterWatcher.start();
    }
    return s;
  }

  private void watchEnter(InputStream in) {
    try {
      int c;
      while ((c = in.read()) >= 0) {
        if (c == '\n' || c == '\r') {
          stop.request("Enter pressed");
          return;
        }
      }
    } catch (IOException e) {
      // No usable stdin: other stop reasons remain.
    }
  }

  private void signal(String name) {
    // The stop first: a child that exits at once on the signal passed on must not have its exit
    // taken for the reason the session stopped.
    if (signals.incrementAndGet() == 1) {
      stop.request(name);
    } else {
      stop.abandon(name);
    }
    passOn.accept(name);
  }

  @Override
  public void close() {
    StandardOutput.removeListener(outputClosed);
    for (String name : new String[] {"INT", "TERM"}) {
      Signals.reset(name);
    }
  }
}
