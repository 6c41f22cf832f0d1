package dev.clrscope.cli.commands;

import dev.clrscope.dac.DacSession;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * A command that reads a core or a paused process through the runtime's DAC. It never runs in the
 * process the user talks to: that process (the front) hands its command line to a DAC process of
 * its own, which loads the DAC, runs the command and sends its output back, so a fault in the DAC
 * ends only that process (docs/architecture.md, "The DAC process"). A command that opens a {@link
 * DacSession} implements this; nothing else is needed.
 */
public interface DacCommand {
  /**
   * Whether this command, as parsed, reads through the DAC ({@code dump-heap} does only for a core
   * or {@code --exact}). Asked in both processes, after parsing and before the command runs.
   */
  boolean readsThroughDac();

  /**
   * Whether the command line may read through the DAC, judged from its words alone (from the
   * command's name on) before anything is parsed, without reading any annotation (the first costs
   * 50 ms): then the DAC process is started at once, its start overlapping the front's. Asked of an
   * instance picocli has not filled in, of each top-level command that implements this; it answers
   * for its own names and its subcommands (a nested one is asked nothing). A wrong yes costs the
   * start of a process that runs nothing; a wrong no, that start later.
   */
  default boolean mayReadThroughDac(List<String> words) {
    return false;
  }

  /** Whether one of {@code words} names a core file ({@code --before=x.core} too). */
  static boolean namesACore(List<String> words) {
    return firstCore(words, true) != null;
  }

  /**
   * The core file a DAC process may open while it parses {@code words}: the first word that is one,
   * unless the words ask for help or name a DAC of their own ({@code --dac}), which no DAC may be
   * loaded before; null when none.
   */
  public static Path coreToOpenAhead(List<String> words) {
    for (String w : words) {
      if (w.startsWith("--dac")
          || w.equals("--help")
          || w.equals("-h")
          || w.equals("--version")
          || w.equals("-V")) {
        return null;
      }
    }
    return firstCore(words, false);
  }

  /**
   * Whether a command of these {@code words}, whose core is opened ahead ({@link
   * #coreToOpenAhead}), reads the core's whole object graph before anything else: {@code dump-heap
   * report}, {@code roots} or {@code dominators} of a core, {@code analyze} whose first command is
   * {@code gcroot}, {@code paths}, {@code retained} or {@code dominators}. The graph is then read
   * while the command is parsed too.
   */
  public static boolean readsGraphFirst(List<String> words) {
    if (words.size() >= 2 && words.get(0).equals("dump-heap")) {
      return Set.of("report", "roots", "dominators").contains(words.get(1));
    }
    if (words.isEmpty() || !words.get(0).equals("analyze")) {
      return false;
    }
    for (int i = 1; i < words.size(); i++) {
      String w = words.get(i);
      String command = null;
      if ((w.equals("-c") || w.equals("--command")) && i + 1 < words.size()) {
        command = words.get(i + 1);
      } else if (w.startsWith("-c=") || w.startsWith("--command=")) {
        command = w.substring(w.indexOf('=') + 1);
      } else if (w.startsWith("-c") && w.length() > 2 && !w.startsWith("--")) {
        command = w.substring(2);
      }
      if (command != null) {
        String name = command.strip().split("\\s+", 2)[0];
        return Set.of("gcroot", "paths", "retained", "dominators").contains(name);
      }
    }
    return false;
  }

  /** The first of {@code words} that names a core file, with options' values or not; or null. */
  private static Path firstCore(List<String> words, boolean optionValues) {
    for (String w : words) {
      if (w.startsWith("-") && !optionValues) {
        continue;
      }
      String path = w.startsWith("-") ? w.substring(w.indexOf('=') + 1) : w;
      try {
        if (!path.isEmpty() && !path.startsWith("-") && isCore(Path.of(path))) {
          return Path.of(path);
        }
      } catch (InvalidPathException notAPath) {
        // A word that names no file.
      }
    }
    return null;
  }

  /** Whether {@code file} is a core dump (an ELF core file); false for none. */
  static boolean isCore(Path file) {
    return file != null && DacSession.looksLikeCore(file);
  }
}
