package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.dacprocess.DacHost;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.DacSession;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * What analyze reads: a core file, opened once for the whole session, or a live process, paused
 * with ptrace only while commands read it ({@link #pause}) and let go after ({@link #release}),
 * with the pause said on stderr. A live process is never left stopped or traced: {@link DacSession}
 * releases it on close, on failure and at JVM shutdown.
 */
abstract class AnalysisTarget implements AutoCloseable {
  /** Opens a core file. */
  static AnalysisTarget core(Path core, DacOptions options) {
    DacHost.reading(0, "core " + core);
    return new Core(DacSession.openCore(core, options));
  }

  /** A live process, not paused yet. */
  static AnalysisTarget live(int pid, DacOptions options) {
    DacHost.reading(pid, "process " + pid);
    return new Live(pid, options);
  }

  /**
   * The process, paused if it is live, until {@link #release}.
   *
   * @throws Unavailable when a live process cannot be paused and read
   */
  abstract DacSession pause();

  /** A live process that could not be paused and read: what the target says, not a command. */
  static final class Unavailable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unavailable(dev.clrscope.dac.TargetException cause) {
      super(cause.getMessage(), cause);
    }
  }

  /** Lets a live process run again, and says on {@code err} how long it was paused. */
  abstract void release(PrintStream err);

  /** Whether this is a live process. */
  abstract boolean isLive();

  /** Asks the command reading the target to end at its next check (Ctrl+C); from any thread. */
  abstract void cancel();

  /** Forgets a cancel no command met, before the next command. */
  abstract void clearCancel();

  /** {@code core /path} or {@code process 123}. */
  abstract String describe();

  @Override
  public abstract void close();

  private static final class Core extends AnalysisTarget {
    private final DacSession process;

    Core(DacSession process) {
      this.process = process;
    }

    @Override
    DacSession pause() {
      return process;
    }

    @Override
    void release(PrintStream err) {}

    @Override
    boolean isLive() {
      return false;
    }

    @Override
    void cancel() {
      process.cancel();
    }

    @Override
    void clearCancel() {
      process.clearCancel();
    }

    @Override
    String describe() {
      return process.describe();
    }

    @Override
    public void close() {
      process.close();
    }
  }

  private static final class Live extends AnalysisTarget {
    private final int pid;
    private final DacOptions options;
    // Read by a signal handler's thread too (cancel).
    private volatile DacSession paused;

    Live(int pid, DacOptions options) {
      this.pid = pid;
      this.options = options;
    }

    @Override
    DacSession pause() {
      if (paused == null) {
        try {
          paused = DacSession.attach(pid, options);
        } catch (dev.clrscope.dac.TargetException e) {
          throw new Unavailable(e);
        }
      }
      return paused;
    }

    @Override
    void release(PrintStream err) {
      if (paused == null) {
        return;
      }
      DacSession p = paused;
      paused = null;
      p.close();
      err.println("Process " + pid + " was paused for " + Unit.duration(p.paused()) + ".");
    }

    @Override
    boolean isLive() {
      return true;
    }

    @Override
    void cancel() {
      DacSession p = paused;
      if (p != null) {
        p.cancel();
      }
    }

    @Override
    void clearCancel() {
      // Each pause reads through a new process, which no cancel has reached yet.
    }

    @Override
    String describe() {
      return "process " + pid;
    }

    @Override
    public void close() {
      if (paused != null) {
        DacSession p = paused;
        paused = null;
        p.close();
      }
    }
  }
}
