package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Report;
import dev.clrscope.dac.ClrProcess;
import dev.clrscope.dac.ClrThread;
import java.io.PrintStream;
import java.util.List;

/**
 * What a command at analyze's prompt works with: the target (for a live process, paused while the
 * command runs), the renderer of the chosen format, stderr for notes, and the session's state that
 * outlives one command (the current thread, as {@code setthread} chose it).
 */
final class AnalyzeContext {
  private final CommandTable commands;
  private final Session session;
  private ClrProcess process;
  private Renderer renderer;
  private PrintStream err;

  /** What lasts from one command to the next. */
  static final class Session {
    /** The OS id of the thread {@code setthread} chose, or 0 for the default. */
    int currentThread;
  }

  AnalyzeContext(CommandTable commands, Session session) {
    this.commands = commands;
    this.session = session;
  }

  /** Sets what the next command works with. */
  void use(ClrProcess p, Renderer r, PrintStream e) {
    process = p;
    renderer = r;
    err = e;
  }

  /** The target's runtime. */
  ClrProcess process() {
    return process;
  }

  /** The renderer of the chosen format. */
  Renderer renderer() {
    return renderer;
  }

  /** Draws a whole result. */
  void show(Report report) {
    renderer.report(report);
  }

  /** A note for a person, on stderr (never among the data). */
  void note(String text) {
    err.println(text);
  }

  /** Every command, for help. */
  CommandTable commands() {
    return commands;
  }

  Session session() {
    return session;
  }

  /**
   * The current thread: the one {@code setthread} chose, else the process's main thread (its OS id
   * is the pid), else the first the runtime lists; null when the runtime has no thread.
   */
  ClrThread currentThread() {
    List<ClrThread> threads = process.threads();
    int wanted = session.currentThread != 0 ? session.currentThread : process.pid();
    for (ClrThread t : threads) {
      if (t.osId() == wanted) {
        return t;
      }
    }
    for (ClrThread t : threads) {
      if (t.osId() != 0) {
        return t;
      }
    }
    return null;
  }
}
