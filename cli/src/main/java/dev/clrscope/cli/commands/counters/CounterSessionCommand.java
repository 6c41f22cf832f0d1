package dev.clrscope.cli.commands.counters;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.render.Result;
import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.monitor.counters.CounterFeed;
import dev.clrscope.monitor.counters.CounterPlan;
import dev.clrscope.monitor.counters.CounterUpdate;
import dev.clrscope.monitor.counters.SessionProblem;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.session.StopSwitch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import picocli.CommandLine.Mixin;

/**
 * What {@code counters monitor} and {@code counters collect} share: plan the session from the
 * options and the target's .NET version, start it before the target runs (a launched child is
 * resumed only once the session is up, so its first values are seen), run until stopped (Ctrl+C,
 * --duration, the target exiting, or the command's own keys), then drain the stream: all through
 * the one {@link SessionRunner}.
 */
abstract class CounterSessionCommand extends AttachingCommand {
  @Mixin CounterOptions options;

  /** The target options as parsed (for the compatibility table's test). */
  dev.clrscope.cli.options.TargetOptions targetOptions() {
    return target;
  }

  /** Whether Enter on a terminal stops the command (monitor uses its own keys). */
  protected boolean stopOnEnter() {
    return true;
  }

  /** What runs on the main thread while the session does, until it is asked to stop. */
  @FunctionalInterface
  protected interface WhileRunning {
    /** Runs until {@code stop} is asked for; may ask it itself (the q key). */
    void run(StopSwitch stop) throws InterruptedException;
  }

  @Override
  protected void validate() {
    options.validate();
  }

  @Override
  protected final Result run(AttachedTarget attached) {
    CounterPlan plan =
        CounterPlan.of(
            options.requests(),
            options.refreshSeconds,
            options.maxHistograms,
            options.maxTimeSeries,
            runtimeMajor(attached));
    return records(plan, attached);
  }

  /**
   * The command's records, made ready before the session starts (a bad output path fails early);
   * their work runs the session through {@link #watchCounters}.
   */
  protected abstract Result records(CounterPlan plan, AttachedTarget attached);

  /**
   * Runs the session to its end: the updates go to {@code updates} on the reader thread, {@code
   * body} runs on this one meanwhile; returns why it stopped ({@code null}: the stream ended).
   */
  protected final String watchCounters(
      CounterPlan plan,
      AttachedTarget attached,
      Consumer<CounterUpdate> updates,
      WhileRunning body) {
    StopSwitch stop = new StopSwitch();
    AtomicReference<SessionProblem> refusal = new AtomicReference<>();
    SessionResult result =
        watch(
            attached,
            plan.sessionRequest().withDuration(options.durationOption.duration()),
            stop,
            stopOnEnter(),
            session -> {
              body.run(session.stopSwitch());
              return session.finish();
            },
            new CounterFeed(
                plan,
                update -> {
                  updates.accept(update);
                  if (update instanceof SessionProblem p
                      && p.refusesSession()
                      && refusal.compareAndSet(null, p)) {
                    stop.request("the target refused the metrics session");
                  }
                }));
    warnAboutStream(result, "some values are missing");
    if (refusal.get() != null) {
      throw new CommandFailure(
          "the target refused the metrics session: " + refusal.get().message());
    }
    return result.stopReason();
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
