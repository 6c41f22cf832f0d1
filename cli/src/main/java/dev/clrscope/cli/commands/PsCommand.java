package dev.clrscope.cli.commands;

import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Column;
import dev.clrscope.cli.render.Table;
import dev.clrscope.cli.render.TableRenderer;
import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.client.DiagnosticsClient;
import dev.clrscope.ipc.client.EndpointConnectionSource;
import dev.clrscope.ipc.client.ProcessInfo;
import dev.clrscope.ipc.discovery.DotnetProcess;
import dev.clrscope.ipc.discovery.EndpointLocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code clrscope ps}: the .NET processes this user can diagnose. */
@Command(
    name = "ps",
    mixinStandardHelpOptions = true,
    description = {
      "List the .NET processes that have a diagnostic endpoint, including those in containers,"
          + " with what each runtime reports about itself."
    })
public final class PsCommand extends ClrscopeSubcommand {
  /** Per-process wait: one hung process must not stall the listing for long. */
  private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(2);

  @Mixin FormatOption format;

  private record Row(DotnetProcess process, ProcessInfo info, String problem) {}

  @Override
  public Integer call() {
    List<DotnetProcess> processes = new EndpointLocator().list();
    List<Row> rows = query(processes);
    Table t =
        new Table(
            List.of(
                Column.number("pid", "PID"),
                Column.text("name", "NAME"),
                Column.text("runtimeVersion", "RUNTIME"),
                Column.text("entrypoint", "ENTRYPOINT"),
                Column.text("os", "OS"),
                Column.text("arch", "ARCH"),
                Column.text("rid", "RID"),
                Column.text("commandLine", "COMMAND LINE")));
    for (Row r : rows) {
      DotnetProcess p = r.process();
      ProcessInfo i = r.info();
      if (r.problem() != null) {
        warn("pid " + p.pid() + ": " + r.problem());
      }
      // The OS's command line is complete; a runtime asked early reports only the host path.
      String commandLine =
          p.commandLine() != null ? p.commandLine() : i == null ? null : i.commandLine();
      t.add(
          p.pid(),
          p.name(),
          i == null ? null : i.clrProductVersion(),
          i == null ? null : i.entrypointAssembly(),
          i == null ? null : i.os(),
          i == null ? null : i.arch(),
          i == null ? null : i.runtimeIdentifier(),
          commandLine);
    }
    new TableRenderer(out()).list(t, format.format());
    return 0;
  }

  /** Asks every runtime at once, so the listing takes as long as the slowest answer. */
  private static List<Row> query(List<DotnetProcess> processes) {
    List<Row> rows = new ArrayList<>();
    if (processes.isEmpty()) {
      return rows;
    }
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(8, processes.size()),
            r -> {
              Thread th = new Thread(r, "clrscope-ps");
              th.setDaemon(true);
              return th;
            });
    try {
      List<Future<ProcessInfo>> answers = new ArrayList<>();
      for (DotnetProcess p : processes) {
        answers.add(
            pool.submit(
                () ->
                    new DiagnosticsClient(new EndpointConnectionSource(p.endpoint()), QUERY_TIMEOUT)
                        .processInfo()));
      }
      for (int k = 0; k < processes.size(); k++) {
        DotnetProcess p = processes.get(k);
        try {
          rows.add(new Row(p, answers.get(k).get(), null));
        } catch (java.util.concurrent.ExecutionException e) {
          String why =
              e.getCause() instanceof DiagnosticsException
                  ? e.getCause().getMessage()
                  : String.valueOf(e.getCause());
          rows.add(new Row(p, null, why));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          rows.add(new Row(p, null, "interrupted"));
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return rows;
  }
}
