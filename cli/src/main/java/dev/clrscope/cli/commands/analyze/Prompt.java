package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.ExitCode;
import dev.clrscope.dac.DacSession;
import dev.clrscope.dac.TargetException;
import dev.clrscope.symbols.SymbolStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.ParsedLine;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Analyze's interactive prompt (JLine): line editing, a history kept in {@code
 * ~/.cache/clrscope/analyze_history} (or under {@code $XDG_CACHE_HOME}), completion of command
 * names and of each command's options. An error is one line and the prompt goes on; Ctrl+C clears
 * the line, Ctrl+D or {@code exit} ends. Ctrl+C while a command runs ends that command where it
 * next checks (a heap walk checks every 65,536 objects; a single read of the target does not), a
 * live process is let go, and the prompt goes on.
 */
final class Prompt {
  private final AnalyzeShell shell;
  private final PrintStream err;
  private boolean exit;

  Prompt(AnalyzeShell shell, PrintStream err) {
    this.shell = shell;
    this.err = err;
  }

  /** The history file. */
  static Path historyFile() {
    return SymbolStore.defaultCacheDir().resolveSibling("analyze_history");
  }

  /**
   * Runs the prompt until exit or end of input.
   *
   * @param greet say what was opened first (no {@code -c} command did)
   */
  int run(boolean greet) {
    // JLine reports through java.util.logging; its warnings are not clrscope's messages.
    Logger.getLogger("org.jline").setLevel(Level.OFF);
    Terminal terminal;
    try {
      terminal = TerminalBuilder.builder().system(true).build();
    } catch (IOException e) {
      throw new CommandFailure("cannot open the terminal for the prompt: " + e.getMessage(), e);
    }
    try (terminal) {
      Path history = historyFile();
      try {
        Files.createDirectories(history.getParent());
      } catch (IOException e) {
        err.println(
            "analyze: no history: cannot create " + history.getParent() + ": " + e.getMessage());
      }
      LineReader reader =
          LineReaderBuilder.builder()
              .terminal(terminal)
              .appName("clrscope analyze")
              .completer(new CommandCompleter(shell.commands()))
              .variable(LineReader.HISTORY_FILE, history)
              .variable(LineReader.HISTORY_FILE_SIZE, 2000)
              .option(LineReader.Option.HISTORY_IGNORE_DUPS, true)
              .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
              .build();
      if (greet) {
        greet();
      }
      while (!exit) {
        String line;
        try {
          line = reader.readLine("> ");
        } catch (UserInterruptException e) {
          continue;
        } catch (EndOfFileException e) {
          break;
        }
        AnalysisTarget target = shell.target();
        target.clearCancel();
        // While a command runs, Ctrl+C ends the command and the prompt goes on, as dotnet-dump's
        // does; JLine has Ctrl+C back while it reads the next line.
        SignalHandler previous = handleInterrupt(sig -> target.cancel());
        try {
          runLine(shell, line, terminal.getWidth(), err, () -> exit = true);
        } finally {
          if (previous != null) {
            handleInterrupt(previous);
          }
        }
      }
      return ExitCode.OK;
    } catch (IOException e) {
      throw new CommandFailure("the terminal failed: " + e.getMessage(), e);
    }
  }

  /** Installs {@code handler} for SIGINT; the handler it replaces, or null where there is none. */
  private static SignalHandler handleInterrupt(SignalHandler handler) {
    try {
      return Signal.handle(new Signal("INT"), handler);
    } catch (IllegalArgumentException notHere) {
      return null;
    }
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

  /** Completes the first word from the command names, the next ones from its options. */
  private static final class CommandCompleter implements Completer {
    private final CommandTable commands;

    CommandCompleter(CommandTable commands) {
      this.commands = commands;
    }

    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
      if (line.wordIndex() == 0) {
        for (String n : commands.names()) {
          candidates.add(new Candidate(n));
        }
        return;
      }
      SosCommand c = commands.find(line.words().get(0));
      if (c == null) {
        return;
      }
      List<String> options = new ArrayList<>(c.spec().flags());
      options.addAll(c.spec().valued());
      options.sort(null);
      for (String o : options) {
        candidates.add(new Candidate(o));
      }
    }
  }
}
