package dev.clrscope.cli.commands;

import dev.clrscope.cli.ClrscopeCommand;
import dev.clrscope.cli.options.OutputFormat;
import dev.clrscope.cli.render.Column;
import dev.clrscope.cli.render.Table;
import dev.clrscope.cli.render.TableRenderer;
import dev.clrscope.ipc.discovery.EndpointLocator;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The build's training run for the AppCDS archive: it walks the start-up paths of the common
 * commands (parsing, help, discovery, rendering) so their classes land in the archive. Hidden.
 */
@Command(name = "__train", hidden = true)
public final class TrainCommand extends ClrscopeSubcommand {
  @Override
  public Integer call() {
    PrintStream sink =
        new PrintStream(
            OutputStream.nullOutputStream(), true, java.nio.charset.StandardCharsets.UTF_8);
    CommandLine cl = new CommandLine(new ClrscopeCommand());
    cl.setOut(new java.io.PrintWriter(sink, true, java.nio.charset.StandardCharsets.UTF_8));
    cl.setErr(new java.io.PrintWriter(sink, true, java.nio.charset.StandardCharsets.UTF_8));
    cl.usage(sink);
    for (String sub : List.of("ps", "info", "env", "dump", "perfmap", "gcstats", "fullgc")) {
      cl.getSubcommands().get(sub).usage(sink);
      cl.parseArgs(sub, "--help");
    }
    for (String group : List.of("trace", "counters")) {
      cl.getSubcommands().get(group).getSubcommands().values().forEach(c -> c.usage(sink));
    }
    cl.parseArgs("info", "-p", "1", "--format", "json");
    cl.parseArgs("env", "-n", "x", "--format", "csv");
    new dev.clrscope.cli.ClrscopeVersion().getVersion();
    new EndpointLocator().list();
    Table t = new Table(List.of(Column.number("pid", "PID"), Column.text("name", "NAME")));
    t.add(1L, "x");
    TableRenderer r = new TableRenderer(sink);
    for (OutputFormat f : OutputFormat.values()) {
      r.list(t, f);
      r.record(t, f);
    }
    return 0;
  }
}
