package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.ExitCode;
import dev.clrscope.cli.dacprocess.DacHost;
import dev.clrscope.dac.DacSession;
import dev.clrscope.dac.TargetException;
import java.io.PrintStream;

/**
 * Analyze's interactive prompt, as the DAC process runs it: each line the user typed at the front's
 * prompt ({@link PromptReader}: line editing, history, completion) is run here. An error is one
 * line and the prompt goes on; Ctrl+D or {@code exit} ends. Ctrl+C while a command runs (the front
 * sends it on) ends that command where it next checks (a heap walk checks every 65,536 objects; a
 * single read of the target does not), a live process is let go, and the prompt goes on; a second
 * Ctrl+C before it has ended stops analyze, as elsewhere.
 */
final class Prompt {
  private final AnalyzeShell shell;
  private final PrintStream err;
  private boolean exit;

  Prompt(AnalyzeShell shell, PrintStream err) {
    this.shell = shell;
    this.err = err;
  }

  /**
   * Runs the prompt until exit or end of input.
   *
   * @param greet say what was opened first (no {@code -c} command did)
   */
  int run(boolean greet) {
    if (greet) {
      greet();
    }
    while (!exit) {
      DacHost.Line line = DacHost.readLine(true, "> ");
      if (line == null) {
        break;
      }
      AnalysisTarget target = shell.target();
      target.clearCancel();
      // While a command runs, Ctrl+C ends the command and the prompt goes on, as dotnet-dump's
      // does; the front has Ctrl+C back while the user types the next line.
      try (DacHost.Armed cancel = DacHost.whileRunning(target::cancel)) {
        runLine(shell, line.text(), line.width(), err, () -> exit = true);
      }
    }
    return ExitCode.OK;
  }

  private void greet() {
    AnalysisTarget target = shell.target();
    try {
      DacSession p = target.pause();
      err.println(
          "Reading "
              + target.describe()
              + " ("
              + AnalyzeCommand.describeRuntime(p.runtime().info())
              + ")"
              + (target.isLive()
                  ? ": each command pauses it while it reads, then lets it go."
                  : ".")
              + " Type help for the commands, exit to end.");
    } finally {
      target.release(err);
    }
  }

  /**
   * Runs one command line as the prompt does: a mistake or what the target says is one line on
   * {@code err} and the session goes on.
   *
   * @param onExit called when the line is {@code exit}
   * @return whether the line succeeded
   */
  static boolean runLine(
      AnalyzeShell shell, String line, int width, PrintStream err, Runnable onExit) {
    AnalyzeShell.Parsed p;
    try {
      p = shell.parse(line);
    } catch (SosUsageException e) {
      err.println(e.getMessage());
      return false;
    }
    if (p == null) {
      return true;
    }
    if (AnalyzeShell.isExit(p)) {
      onExit.run();
      return true;
    }
    try {
      shell.run(p, width);
      return true;
    } catch (SosUsageException e) {
      err.println(e.getMessage());
      return false;
    } catch (TargetException e) {
      err.println(p.command().name() + ": " + e.getMessage());
      return false;
    } catch (AnalysisTarget.Unavailable e) {
      err.println(e.getMessage());
      return false;
    } catch (RuntimeException e) {
      // A bug: said as such, and the session goes on.
      err.println(p.command().name() + ": internal error, please report it:");
      e.printStackTrace(err);
      return false;
    } finally {
      shell.target().release(err);
    }
  }
}
