package dev.clrscope.cli;

import dev.clrscope.cli.commands.DumpCommand;
import dev.clrscope.cli.commands.EnvCommand;
import dev.clrscope.cli.commands.InfoCommand;
import dev.clrscope.cli.commands.PerfMapCommand;
import dev.clrscope.cli.commands.PsCommand;
import dev.clrscope.cli.commands.ResumeCommand;
import dev.clrscope.cli.commands.TrainCommand;
import dev.clrscope.cli.commands.alloc.AllocCommand;
import dev.clrscope.cli.commands.analyze.AnalyzeCommand;
import dev.clrscope.cli.commands.contention.ContentionCommand;
import dev.clrscope.cli.commands.counters.CountersCommand;
import dev.clrscope.cli.commands.exceptions.ExceptionsCommand;
import dev.clrscope.cli.commands.gc.FullGcCommand;
import dev.clrscope.cli.commands.gc.GcStatsCommand;
import dev.clrscope.cli.commands.heap.DumpHeapCommand;
import dev.clrscope.cli.commands.http.HttpCommand;
import dev.clrscope.cli.commands.serve.ServeCommand;
import dev.clrscope.cli.commands.stack.StackCommand;
import dev.clrscope.cli.commands.startup.StartupCommand;
import dev.clrscope.cli.commands.trace.TraceCommand;
import dev.clrscope.cli.commands.triage.TriageCommand;
import dev.clrscope.cli.options.LoggingOptions;
import dev.clrscope.cli.options.Numbers;
import dev.clrscope.cli.output.RunOutput;
import java.util.List;
import java.util.Map;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The top-level {@code clrscope} command: it only dispatches to subcommands.
 *
 * <p>Subcommands are registered in code rather than in the annotation so that a run builds the
 * picocli model of the one command it runs: building all of them costs about 170 ms of start-up,
 * most of what {@code clrscope ps} would otherwise take.
 */
@Command(
    name = "clrscope",
    mixinStandardHelpOptions = true,
    versionProvider = ClrscopeVersion.class,
    description = "Diagnose live .NET processes: list, inspect, dump, trace.",
    footer = {
      "",
      "Exit codes: 0 success, 1 target or environment error, 2 usage error, 70 internal error.",
      "Commands that attach take -- COMMAND [ARGS] to launch a .NET app under clrscope;",
      "clrscope then exits with the app's exit code."
    })
public final class ClrscopeCommand implements Runnable {
  /** Every subcommand, in the order help lists them. */
  private static final List<Class<?>> SUBCOMMANDS =
      List.of(
          PsCommand.class,
          InfoCommand.class,
          EnvCommand.class,
          DumpCommand.class,
          PerfMapCommand.class,
          ResumeCommand.class,
          TraceCommand.class,
          CountersCommand.class,
          GcStatsCommand.class,
          FullGcCommand.class,
          ExceptionsCommand.class,
          ContentionCommand.class,
          AllocCommand.class,
          HttpCommand.class,
          StartupCommand.class,
          DumpHeapCommand.class,
          AnalyzeCommand.class,
          TriageCommand.class,
          StackCommand.class,
          ServeCommand.class,
          AutoComplete.GenerateCompletion.class,
          TrainCommand.class);

  @Spec CommandSpec spec;

  /** {@code clrscope -v ps} as well as {@code clrscope ps -v}. */
  @Mixin LoggingOptions logging;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "choose a command");
  }

  /**
   * The subcommand with this name or alias, or {@code null}. Annotations are read in list order
   * until one matches: each class read costs start-up, and the commonest commands come first.
   */
  private static Class<?> named(String name) {
    for (Class<?> c : SUBCOMMANDS) {
      Command command = c.getAnnotation(Command.class);
      if (command.name().equals(name) || List.of(command.aliases()).contains(name)) {
        return c;
      }
    }
    return null;
  }

  /**
   * Runs a command line that needs no parser and returns its exit code, or returns {@code null}
   * when it needs one: {@code ps} alone or with a format ({@link PsCommand#runWithoutParser}).
   */
  public static Integer runWithoutParser(RunOutput output, String... args) {
    if (args.length > 0 && args[0].equals("ps")) {
      return PsCommand.runWithoutParser(List.of(args).subList(1, args.length), output);
    }
    return null;
  }

  /** Every top-level subcommand's class, in the order help lists them. */
  public static List<Class<?>> subcommands() {
    return SUBCOMMANDS;
  }

  /**
   * Subcommands of subcommands that are registered in code, like the top-level ones, so that a run
   * builds the model of the one it runs.
   */
  private static final Map<Class<?>, List<Class<?>>> NESTED =
      Map.of(DumpHeapCommand.class, DumpHeapCommand.SUBCOMMANDS);

  /** The whole command tree: for help, completion and tests. */
  public static CommandLine fullCommandLine() {
    CommandLine cl = new CommandLine(new ClrscopeCommand());
    for (Class<?> c : SUBCOMMANDS) {
      add(cl, c, NESTED.getOrDefault(c, List.of()));
    }
    Numbers.register(cl);
    return cl;
  }

  /** Registers {@code c} under its name (picocli adds its aliases) with {@code nested} below it. */
  private static void add(CommandLine parent, Class<?> c, List<Class<?>> nested) {
    parent.addSubcommand(c.getAnnotation(Command.class).name(), c);
    if (!nested.isEmpty()) {
      CommandLine sub = parent.getSubcommands().get(c.getAnnotation(Command.class).name());
      for (Class<?> n : nested) {
        sub.addSubcommand(n.getAnnotation(Command.class).name(), n);
      }
    }
  }

  /**
   * The nested subcommands a run of {@code c} needs: the one {@code second} names, else all of them
   * (help, options before the subcommand, the command itself).
   */
  private static List<Class<?>> nestedFor(Class<?> c, String second) {
    List<Class<?>> nested = NESTED.getOrDefault(c, List.of());
    for (Class<?> n : nested) {
      Command command = n.getAnnotation(Command.class);
      if (command.name().equals(second) || List.of(command.aliases()).contains(second)) {
        return List.of(n);
      }
    }
    return nested;
  }

  /**
   * The command tree a run with these arguments needs: only the named subcommand when the first
   * argument names one (completion needs them all), none for the top-level version, else all.
   */
  public static CommandLine commandLineFor(String... args) {
    String first = args.length > 0 ? args[0] : "";
    Class<?> c = first.isEmpty() || first.startsWith("-") ? null : named(first);
    if (c != null && !first.equals("generate-completion")) {
      CommandLine cl = new CommandLine(new ClrscopeCommand());
      add(cl, c, nestedFor(c, args.length > 1 ? args[1] : ""));
      Numbers.register(cl);
      return cl;
    }
    if (args.length == 1 && (first.equals("-V") || first.equals("--version"))) {
      return new CommandLine(new ClrscopeCommand());
    }
    return fullCommandLine();
  }
}
