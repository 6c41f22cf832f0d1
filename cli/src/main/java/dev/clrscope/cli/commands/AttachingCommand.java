package dev.clrscope.cli.commands;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.attach.TargetResolver;
import dev.clrscope.cli.commands.trace.TraceFileInput;
import dev.clrscope.cli.options.TargetOptions;
import dev.clrscope.cli.options.TargetSpec;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.session.StopSignals;
import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.discovery.EndpointLocator;
import dev.clrscope.monitor.methods.MethodAddressMap;
import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.monitor.session.SessionRequest;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.session.SessionRunner;
import dev.clrscope.monitor.session.StopSwitch;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;

/**
 * A command that talks to one runtime. The base resolves the target, runs the command and draws its
 * result while the target is attached (records come from a live session), always lets a runtime
 * that waits at startup continue (even when the command failed: clrscope never leaves a target
 * stuck), and for a launched child passes its exit code through.
 */
public abstract class AttachingCommand extends ClrscopeSubcommand {
  /** -p, -n, --diagnostic-port, --timeout and -- COMMAND. */
  @Mixin protected TargetOptions target;

  /** Does the command's work on an attached target; its result is drawn while it is attached. */
  protected abstract Result run(AttachedTarget attached);

  /**
   * Checks the command's own options before anything is attached or launched, so that a mistake
   * never leaves a launched app running or a port waiting. Throws ParameterException.
   */
  protected void validate() {}

  /** Whether the command needs a target; one that does not runs {@link #run()} without one. */
  protected boolean needsTarget() {
    return true;
  }

  /**
   * Whether the command reads a saved file given as {@code FILE} where a target would be ({@link
   * #readFile}); a word before {@code --} is otherwise a usage error, never a program to launch.
   */
  protected boolean readsFiles() {
    return false;
  }

  /** The command's work on the saved file given instead of a target. */
  protected Result readFile(Path file) {
    throw new UnsupportedOperationException(spec.qualifiedName() + " reads no file");
  }

  /** The command's work when no target option was given and {@link #needsTarget()} is false. */
  @Override
  protected Result run() {
    throw new UnsupportedOperationException(spec.qualifiedName() + " needs a target");
  }

  /** Whether to resume a waiting runtime before {@link #run} rather than after it. */
  protected boolean releaseFirst() {
    return false;
  }

  /**
   * Lets a runtime waiting at startup continue, unless {@code --resume-runtime false} asks to leave
   * it waiting (then said once on stderr).
   */
  private void release(AttachedTarget attached) {
    if (target.resumeRuntime()) {
      attached.release();
    } else if (!leftWaitingSaid) {
      leftWaitingSaid = true;
      warn(
          "--resume-runtime false: a runtime waiting at startup is left waiting (`clrscope resume"
              + " "
              + (attached.pid() > 0 ? "-p " + attached.pid() : "--diagnostic-port ...")
              + "` releases it)");
    }
  }

  private boolean leftWaitingSaid;

  /** What a command does while its live session runs; usually ends with {@code finish()}. */
  @FunctionalInterface
  protected interface WhileWatching {
    /** Runs on the main thread once the session is up and the target released. */
    SessionResult run(SessionRunner session) throws InterruptedException;
  }

  /**
   * Runs one live session on the target through the session runner, with the user's ways to stop it
   * (Ctrl+C and SIGTERM; Enter too if {@code watchEnter}) wired to {@code stop}: starts it,
   * releases a target waiting at startup (so its first events are seen), runs {@code body}, and
   * closes the session however that ends.
   *
   * @param stop the session's switch (consumers that stop the session hold it too)
   */
  protected SessionResult watch(
      AttachedTarget attached,
      SessionRequest request,
      StopSwitch stop,
      boolean watchEnter,
      WhileWatching body,
      EventConsumer... consumers) {
    try (StopSignals signals = StopSignals.install(stop, watchEnter, attached::passOn);
        SessionRunner session = SessionRunner.start(attached.client(), request, stop, consumers)) {
      release(attached);
      SessionResult result = body.run(session);
      if (stop.stoppedByDuration()) {
        attached.endLaunched(stop.reason());
      }
      return result;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommandFailure("interrupted", e);
    }
  }

  /**
   * Warns about what went wrong with a live session's stream: it broke off, or the runtime dropped
   * events.
   *
   * @param droppedMeans what dropped events mean for this command's output
   */
  /**
   * Says on stderr what is watched and how it ends: {@code Watching the GCs of process 42 for 10 s;
   * Ctrl+C or Enter to stop.}
   *
   * @param what what is watched, with its article ({@code the GCs})
   * @param duration the {@code --duration}, or null
   */
  protected void announceWatching(
      String what, AttachedTarget attached, java.time.Duration duration) {
    err()
        .println(
            "Watching "
                + what
                + " of "
                + attached.describe()
                + (duration == null ? "" : " for " + duration.toSeconds() + " s")
                + "; Ctrl+C or Enter to stop.");
  }

  /**
   * Watches the target with a monitor's consumers until Ctrl+C, Enter, the request's duration or
   * the target's exit: says what it watches, prints {@code header} once the session runs, and warns
   * of a broken or lossy stream ({@code droppedMeans}: what lost events cost).
   */
  protected SessionResult watchMonitor(
      AttachedTarget attached,
      SessionRequest request,
      String what,
      Runnable header,
      String droppedMeans,
      EventConsumer... consumers) {
    SessionResult result =
        watch(
            attached,
            request,
            new StopSwitch(),
            true,
            session -> {
              announceWatching(what, attached, request.duration());
              header.run();
              return session.finish();
            },
            consumers);
    warnAboutStream(result, droppedMeans);
    return result;
  }

  /**
   * {@code request} with the methods already compiled in the target named in {@code methods} before
   * its first event is read ({@link MethodAddressMap#namesFirst}): a process that has run a while
   * throws and waits in code compiled before clrscope came. A launched app has compiled nothing
   * yet.
   */
  protected static SessionRequest namedFromTheStart(
      SessionRequest request, MethodAddressMap methods, AttachedTarget attached) {
    return attached.launchClock() != null
        ? request
        : request.withBeforeReading(methods.namesFirst(attached.client()));
  }

  /**
   * Reads the saved trace given where the target goes into {@code consumer} in one pass, warns of a
   * trace that was cut off, and returns how long a span the trace covers (nanoseconds).
   */
  protected long analyseSavedTrace(Path file, EventConsumer consumer) {
    SessionResult read = TraceFileInput.feed(file, consumer);
    TraceFileInput.warnings(read, "analysed").forEach(this::warn);
    return read.observedNanos();
  }

  protected void warnAboutStream(SessionResult result, String droppedMeans) {
    if (result.failure() != null) {
      warn("the trace stream broke off: " + result.failure().getMessage());
    }
    if (result.droppedEvents() > 0) {
      warn(
          "the runtime dropped "
              + result.droppedEvents()
              + " events (its buffer was full): "
              + droppedMeans);
    }
  }

  @Override
  public final Integer call() {
    if (!readsFiles() && !target.inputs().isEmpty()) {
      throw target.notAFile();
    }
    Path file = target.inputFile();
    if (file != null) {
      if (target.isChosen()) {
        throw new ParameterException(
            spec.commandLine(),
            "give a saved file ("
                + file
                + ") or a target (-p, -n, --diagnostic-port, -- COMMAND), not both");
      }
      validate();
      return draw(readFile(file));
    }
    if (!needsTarget() && !target.isChosen()) {
      validate();
      return draw(run());
    }
    TargetSpec spec = target.spec();
    validate();
    try (AttachedTarget attached =
        new TargetResolver(new EndpointLocator(), err()).attach(spec, target.showChildIo())) {
      // What the runtime cannot give of a session as asked (stacks off on .NET 8, say), once.
      attached.client().noticesTo(this::warn);
      int own;
      try {
        if (releaseFirst()) {
          release(attached);
        }
        own = draw(run(attached));
      } finally {
        try {
          release(attached);
        } catch (DiagnosticsException e) {
          // The target may have exited; the command's own outcome is what to report.
        }
      }
      if (!target.resumeRuntime()) {
        // Nothing else will ever let a launched app that was never resumed run.
        attached.endLaunched("--resume-runtime false left it waiting at startup");
      }
      return attached.exitCode(own);
    }
  }
}
