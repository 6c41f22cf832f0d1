package dev.clrscope.cli.commands;

import dev.clrscope.cli.Main;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import picocli.CommandLine.Command;

/**
 * The build's training run for the AppCDS archive: it runs the start-up paths of the common
 * commands for real (parsing, help, discovery, IPC, rendering, usage and target errors), with their
 * output thrown away, so that their classes and lambdas land in the archive. Hidden.
 */
@Command(name = "__train", hidden = true)
public final class TrainCommand extends ClrscopeSubcommand {
  private static final List<List<String>> RUNS =
      List.of(
          List.of("ps"),
          List.of("ps", "--format", "json"),
          List.of("ps", "--format", "csv"),
          List.of("info", "-p", "1"),
          List.of("info", "-p", "999999999", "--format", "json"),
          List.of("env", "-n", "no-such-process-name"),
          List.of("info"),
          List.of("no-such-command"),
          List.of("--help"),
          List.of("ps", "--help"),
          List.of("info", "--help"),
          List.of("dump", "--help"),
          List.of("gcstats", "--help"),
          List.of("fullgc", "--help"),
          List.of("trace", "collect", "--help"),
          List.of("trace", "stats", "--help"),
          List.of("counters", "monitor", "--help"),
          List.of("counters", "collect", "--help"));

  @Override
  public Integer call() {
    PrintStream out = System.out;
    PrintStream err = System.err;
    PrintStream sink =
        new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    try {
      System.setOut(sink);
      System.setErr(sink);
      for (List<String> run : RUNS) {
        Main.run(run.toArray(String[]::new));
      }
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return 0;
  }
}
