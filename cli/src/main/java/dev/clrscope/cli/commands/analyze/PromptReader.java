package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.CommandFailure;
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

/**
 * Analyze's prompt as the user types at it, in the front (the process that owns the terminal):
 * JLine's line editing, a history kept in {@code ~/.cache/clrscope/analyze_history} (or under
 * {@code $XDG_CACHE_HOME}), completion of command names and of each command's options; Ctrl+C
 * clears the line. The lines go to the DAC process, which runs them ({@link Prompt}).
 */
public final class PromptReader implements AutoCloseable {
  private final Terminal terminal;
  private final LineReader reader;
  private final CommandTable commands;

  private PromptReader(Terminal terminal, LineReader reader, CommandTable commands) {
    this.terminal = terminal;
    this.reader = reader;
    this.commands = commands;
  }

  /** The history file. */
  static Path historyFile() {
    return SymbolStore.defaultCacheDir().resolveSibling("analyze_history");
  }

  /**
   * Opens the terminal for the prompt.
   *
   * @param err where a history that cannot be kept is said
   * @throws CommandFailure when the terminal cannot be opened
   */
  public static PromptReader open(PrintStream err) {
    // JLine reports through java.util.logging; its warnings are not clrscope's messages.
    Logger.getLogger("org.jline").setLevel(Level.OFF);
    Terminal terminal;
    try {
      terminal = TerminalBuilder.builder().system(true).build();
    } catch (IOException e) {
      throw new CommandFailure("cannot open the terminal for the prompt: " + e.getMessage(), e);
    }
    Path history = historyFile();
    try {
      Files.createDirectories(history.getParent());
    } catch (IOException e) {
      err.println(
          "analyze: no history: cannot create " + history.getParent() + ": " + e.getMessage());
    }
    CommandTable commands = CommandTable.standard();
    LineReader reader =
        LineReaderBuilder.builder()
            .terminal(terminal)
            .appName("clrscope analyze")
            .completer(new CommandCompleter(commands))
            .variable(LineReader.HISTORY_FILE, history)
            .variable(LineReader.HISTORY_FILE_SIZE, 2000)
            .option(LineReader.Option.HISTORY_IGNORE_DUPS, true)
            .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
            .build();
    return new PromptReader(terminal, reader, commands);
  }

  /**
   * The next line typed; Ctrl+C clears the line and reads again.
   *
   * @return null at Ctrl+D
   */
  public String read(String prompt) {
    while (true) {
      try {
        return reader.readLine(prompt);
      } catch (UserInterruptException e) {
        // The line is cleared; the prompt goes on.
      } catch (EndOfFileException e) {
        return null;
      }
    }
  }

  /** The terminal's width now. */
  public int width() {
    return terminal.getWidth();
  }

  /**
   * The name of the command a line runs ({@code dumpheap} for {@code dumph -stat}), or its word.
   */
  public String commandOf(String line) {
    List<String> words = SosArgs.split(line);
    if (words.isEmpty()) {
      return "";
    }
    SosCommand c = commands.find(words.get(0));
    return c == null ? words.get(0) : c.name();
  }

  @Override
  public void close() {
    try {
      terminal.close();
    } catch (IOException e) {
      // The terminal is restored as far as it can be.
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
