package dev.clrscope.cli.commands.analyze;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Analyze's commands, found by name or alias in any case (and with SOS's {@code !} prefix). */
final class CommandTable {
  private final List<SosCommand> commands;

  private CommandTable(List<SosCommand> commands) {
    this.commands = List.copyOf(commands);
  }

  /** Every command, in the order help lists them. */
  static CommandTable standard() {
    return new CommandTable(
        List.of(
            new DumpHeap(),
            new DumpObj(),
            new DumpArray(),
            new DumpMt(),
            new Name2Ee(),
            new ObjSize(),
            new GcRoot(),
            new GcWhere(),
            new EeHeap(),
            new DumpGen(),
            new Threads(),
            new SetThread(),
            new ClrStack(),
            new ParallelStacksCommand(),
            new PrintException(),
            new FinalizeQueue(),
            new SyncBlk(),
            new DumpAsync(),
            new TimerInfo(),
            new ThreadPoolQueue(),
            new TaskStateCommand(),
            new DumpConcurrentQueue(),
            new DumpConcurrentDictionary(),
            new Help(),
            new Exit()));
  }

  /** Every command. */
  List<SosCommand> all() {
    return commands;
  }

  /** The command named {@code word}, or null. */
  SosCommand find(String word) {
    String w = word.startsWith("!") ? word.substring(1) : word;
    w = w.toLowerCase(Locale.ROOT);
    for (SosCommand c : commands) {
      if (c.name().equals(w) || c.aliases().contains(w)) {
        return c;
      }
    }
    return null;
  }

  /** Every name and alias, for completion. */
  List<String> names() {
    List<String> names = new ArrayList<>();
    for (SosCommand c : commands) {
      names.add(c.name());
      names.addAll(c.aliases());
    }
    return names;
  }
}
