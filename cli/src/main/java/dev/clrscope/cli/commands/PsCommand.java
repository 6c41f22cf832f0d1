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
import java.util.concurrent.FutureTask;
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

  /**
   * The listing started before the command line was parsed ({@link #startEarly}), or {@code null}.
   */
  private static volatile FutureTask<List<Row>> early;

  /**
   * Starts listing and asking the runtimes on a thread of its own while picocli builds the model of
   * the command line, when the arguments after {@code ps} are ones the listing does not depend on
   * (a format). Building the model costs about as long as the listing, and the machine has a second
   * core: {@code ps} takes the longer of the two instead of their sum. Help, logging options and
   * anything unexpected get no head start, so their runs behave exactly as before (a help request
   * asks no runtime anything; logs of the listing are not lost before logging starts).
   *
   * @param rest the arguments after {@code ps}
   */
  public static void startEarly(List<String> rest) {
    for (String a : rest) {
      if (a.startsWith("-") && !a.equals("--format") && !a.startsWith("--format=")) {
        return;
      }
    }
    FutureTask<List<Row>> task = new FutureTask<>(() -> query(new EndpointLocator().list()));
    Thread t = new Thread(task, "clrscope-ps-early");
    t.setDaemon(true);
    early = task;
    t.start();
  }

  /** Drops a listing started early that no {@code ps} run took. */
  public static void forgetEarly() {
    early = null;
  }

  /** The listing: the one started early, else one made now. */
  private static List<Row> listing() {
    FutureTask<List<Row>> task = early;
    early = null;
    if (task == null) {
      return query(new EndpointLocator().list());
    }
    try {
      return task.get();
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while listing processes", e);
    }
  }

  @Override
  public Integer call() {
    EndpointLocator locator = new EndpointLocator();
    List<Row> rows = listing();
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
                Column.text("state", "STATE"),
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
      boolean waiting = waitsAtStartup(p, i);
      if (waiting) {
        warn(
            "pid "
                + p.pid()
                + " waits at startup for a diagnostic tool: "
                + releaseHint(locator, p));
      }
      t.add(
          p.pid(),
          p.name(),
          i == null ? null : i.clrProductVersion(),
          i == null ? null : i.entrypointAssembly(),
          i == null ? null : i.os(),
          i == null ? null : i.arch(),
          i == null ? null : i.runtimeIdentifier(),
          i == null ? null : waiting ? "waiting" : "running",
          commandLine);
    }
    new TableRenderer(out()).list(t, format.format());
    return 0;
  }

  /**
   * Whether the runtime seems to wait at startup to be resumed (a diagnostic port in suspend mode):
   * such a runtime has not yet read its command line and reports the host's path alone, while the
   * OS shows the arguments. A runtime started without arguments cannot be told apart this way.
   */
  static boolean waitsAtStartup(DotnetProcess p, ProcessInfo i) {
    if (i == null || i.commandLine() == null || p.commandLine() == null) {
      return false;
    }
    String reported = i.commandLine().strip();
    return !reported.isEmpty() && !reported.contains(" ") && p.commandLine().strip().contains(" ");
  }

  /**
   * How to let a waiting runtime run: a runtime paused for a port in connect mode waits for a tool
   * on that port (DOTNET_DiagnosticPorts, {@code path[,connect|listen][,suspend|nosuspend]},
   * connect and suspend by default), which {@code clrscope resume --diagnostic-port PATH} is;
   * otherwise {@code clrscope resume -p PID}.
   */
  static String releaseHint(EndpointLocator locator, DotnetProcess p) {
    String ports = locator.environmentVariable(p.pid(), "DOTNET_DiagnosticPorts");
    List<String> waitingOn = new ArrayList<>();
    if (ports != null) {
      for (String port : ports.split(";")) {
        String[] parts = port.split(",");
        boolean listen = false;
        boolean suspend = true;
        for (int k = 1; k < parts.length; k++) {
          switch (parts[k].strip().toLowerCase(java.util.Locale.ROOT)) {
            case "listen" -> listen = true;
            case "nosuspend" -> suspend = false;
            default -> {}
          }
        }
        if (!parts[0].isBlank() && !listen && suspend) {
          waitingOn.add(parts[0].strip());
        }
      }
    }
    if (waitingOn.isEmpty()) {
      return "`clrscope resume -p " + p.pid() + "` lets it run";
    }
    return "it waits for a tool on "
        + String.join(" and ", waitingOn)
        + " (DOTNET_DiagnosticPorts); `clrscope resume --diagnostic-port "
        + waitingOn.get(0)
        + "` lets it run";
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
