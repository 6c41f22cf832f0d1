package dev.clrscope.cli.commands;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Column;
import dev.clrscope.cli.render.Table;
import dev.clrscope.cli.render.TableRenderer;
import dev.clrscope.ipc.client.ProcessInfo;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code clrscope info}: everything the runtime says about its process. */
@Command(
    name = "info",
    mixinStandardHelpOptions = true,
    description = "Show what a runtime reports about its process (ProcessInfo3, or older).")
public final class InfoCommand extends AttachingCommand {
  @Mixin FormatOption format;

  @Override
  protected int run(AttachedTarget attached) {
    ProcessInfo info = attached.client().processInfo();
    Table t =
        new Table(
            List.of(
                Column.number("pid", "Process ID"),
                Column.text("commandLine", "Command line"),
                Column.text("os", "OS"),
                Column.text("arch", "Architecture"),
                Column.text("runtimeIdentifier", "Runtime identifier"),
                Column.text("entrypointAssembly", "Entry assembly"),
                Column.text("runtimeVersion", "Runtime version"),
                Column.text("runtimeCookie", "Runtime cookie"),
                Column.text("endpoint", "Endpoint"),
                Column.text("protocolCommand", "Answered by")));
    t.add(
        info.pid(),
        info.commandLine(),
        info.os(),
        info.arch(),
        info.runtimeIdentifier(),
        info.entrypointAssembly(),
        info.clrProductVersion(),
        info.runtimeCookie().toString(),
        attached.endpoint(),
        info.answeredBy().describe());
    new TableRenderer(out()).record(t, format.format());
    return 0;
  }
}
