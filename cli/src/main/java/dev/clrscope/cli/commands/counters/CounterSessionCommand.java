package dev.clrscope.cli.commands.counters;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.session.StopSignals;
import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.monitor.counters.CounterPlan;
import dev.clrscope.monitor.counters.CounterUpdate;
import java.time.Duration;
import picocli.CommandLine.Mixin;

/**
 * What {@code counters monitor} and {@code counters collect} share: plan the session from the
 * options and the target's .NET version, start it before the target runs (a launched child is
 * resumed only once the session is up, so its first values are seen), run until stopped (Ctrl+C,
 * --duration, the target exiting, or the command's own keys), then drain the stream.
 */
abstract class CounterSessionCommand extends AttachingCommand {
  @Mixin CounterOptions options;

  /** Prepares the output before the session starts (and fails early on a bad output path). */
  protected abstract void begin(CounterPlan plan, AttachedTarget attached);

  /** Takes one update, on the reader thread. */
  protected abstract void accept(CounterUpdate update);

  /** Waits until {@code stop} is requested; may stop it itself (the q key). */
  protected void waitForStop(StopSignals stop) throws InterruptedException {
    while (!stop.awaitStop(Duration.ofSeconds(1))) {
      // The reader thread does the work.
    }
  }

  /** Ends the output once the stream has been read to its end. */
  protected abstract void end(String stopReason);

  /** Whether Enter on a terminal stops the command (monitor uses its own keys). */
  protected boolean stopOnEnter() {
    return true;
  }

  @Override
  protected int run(AttachedTarget attached) {
    options.validate();
    CounterPlan plan =
        CounterPlan.of(
            options.requests(),
            options.refreshSeconds,
            options.maxHistograms,
            options.maxTimeSeries,
            runtimeMajor(attached));
    begin(plan, attached);
    try (StopSignals stop = StopSignals.install(options.durationOption.duration(), stopOnEnter())) {
      CounterSession session =
          CounterSession.start(
              attached.client(), plan, this::accept, () -> stop.request("the target exited"));
      try {
        attached.release();
        waitForStop(stop);
        if (!session.hasEnded()) {
          // No rundown: the runtime closes the stream promptly after StopTracing.
          session.stopAndDrain(Duration.ofSeconds(10));
        }
      } finally {
        session.close();
      }
      if (session.failure() != null) {
        warn("the trace stream broke off: " + session.failure().getMessage());
      }
      if (session.droppedEvents() > 0) {
        warn("the runtime dropped " + session.droppedEvents() + " events: some values are missing");
      }
      end(stop.reason());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommandFailure("interrupted", e);
    }
    return 0;
  }

  /** The target's .NET major version from ProcessInfo, or 0 when it cannot be told. */
  static int runtimeMajor(AttachedTarget attached) {
    try {
      String v = attached.client().processInfo().clrProductVersion();
      if (v == null) {
        return 0;
      }
      int dot = v.indexOf('.');
      return Integer.parseInt(dot > 0 ? v.substring(0, dot) : v);
    } catch (DiagnosticsException | NumberFormatException e) {
      return 0;
    }
  }
}
