package dev.clrscope.cli.commands;

import dev.clrscope.cli.ExitCode;
import dev.clrscope.cli.logging.Logging;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.output.RunOutput;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.OutputFormat;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.client.DiagnosticsClient;
import dev.clrscope.ipc.client.EndpointConnectionSource;
import dev.clrscope.ipc.client.ProcessInfo;
import dev.clrscope.ipc.discovery.DotnetProcess;
import dev.clrscope.ipc.discovery.EndpointLocator;
import dev.clrscope.ipc.transport.UnixSocketPreload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;
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

  /** The name in warnings and errors. */
  static final String QUALIFIED_NAME = "clrscope ps";

  /**
   * Runs {@code ps} without picocli when nothing follows it but one {@code --format} with a valid
   * value, which is how people and scripts run it. On Java 17 building the model from the
   * annotations generates a proxy class per annotation type, which takes longer than asking every
   * runtime: this way {@code ps} costs the listing alone. Any other arguments (help, logging
   * options, a bad value and its usage error) go through the parser as for every command.
   *
   * @param rest the arguments after {@code ps}
   * @return the exit code, or {@code null} when the arguments need the parser
   */
  public static Integer runWithoutParser(List<String> rest, RunOutput output) {
    OutputFormat format = plainFormat(rest);
    if (format == null) {
      return null;
    }
    UnixSocketPreload.start();
    // As Main does before running any command: slf4j is bound on this thread, before the threads
    // that ask the runtimes create their loggers.
    Logging.bind();
    EndpointLocator locator = new EndpointLocator();
    output.draw(
        listing(query(locator.list()), locator, m -> warn(output.err(), QUALIFIED_NAME, m)),
        format);
    return ExitCode.OK;
  }

  /**
   * The format asked for when {@code rest} is empty or one {@code --format} option whose value is a
   * format's name ({@code --format X}, {@code --format=X}, {@code --format:X}), else {@code null}.
   */
  static OutputFormat plainFormat(List<String> rest) {
    String value;
    if (rest.isEmpty()) {
      return new FormatOption().format();
    } else if (rest.size() == 2 && rest.get(0).equals("--format")) {
      value = rest.get(1);
    } else if (rest.size() == 1
        && (rest.get(0).startsWith("--format=") || rest.get(0).startsWith("--format:"))) {
      value = rest.get(0).substring("--format=".length());
    } else {
      return null;
    }
    return FormatOption.offered(value);
  }

  @Override
  protected Result run() {
    EndpointLocator locator = new EndpointLocator();
    return listing(query(locator.list()), locator, this::warn);
  }

  /**
   * One process of the listing.
   *
   * @param state {@code waiting} (at startup, for a diagnostic tool) or {@code running}; {@code
   *     null} when the runtime did not answer
   * @param commandLine the OS's command line, else what the runtime reports
   */
  private record Listed(DotnetProcess process, ProcessInfo info, String state, String commandLine) {
    private <T> T info(Function<ProcessInfo, T> part) {
      return info == null ? null : part.apply(info);
    }
  }

  private static final RecordSchema<Listed> SCHEMA =
      new RecordSchema<Listed>(
              null,
              List.of(
                  Field.of("pid", "PID", 0, Unit.ID, (Listed r) -> r.process().pid()),
                  Field.of("name", "NAME", 0, Unit.TEXT, (Listed r) -> r.process().name()),
                  Field.of(
                      "runtimeVersion",
                      "RUNTIME",
                      0,
                      Unit.TEXT,
                      (Listed r) -> r.info(ProcessInfo::clrProductVersion)),
                  Field.of(
                      "entrypoint",
                      "ENTRYPOINT",
                      0,
                      Unit.TEXT,
                      (Listed r) -> r.info(ProcessInfo::entrypointAssembly)),
                  Field.of("os", "OS", 0, Unit.TEXT, (Listed r) -> r.info(ProcessInfo::os)),
                  Field.of("arch", "ARCH", 0, Unit.TEXT, (Listed r) -> r.info(ProcessInfo::arch)),
                  Field.of(
                      "rid",
                      "RID",
                      0,
                      Unit.TEXT,
                      (Listed r) -> r.info(ProcessInfo::runtimeIdentifier)),
                  Field.of("state", "STATE", 0, Unit.TEXT, Listed::state),
                  Field.of("commandLine", "COMMAND LINE", 0, Unit.TEXT, Listed::commandLine)))
          .withPriority(List.of("pid", "name", "runtimeVersion", "state", "commandLine"));

  /** The listing; a warning per process that needs one. */
  private static Report listing(List<Row> rows, EndpointLocator locator, Consumer<String> warn) {
    List<Listed> listed = new ArrayList<>(rows.size());
    for (Row r : rows) {
      DotnetProcess p = r.process();
      ProcessInfo i = r.info();
      if (r.problem() != null) {
        warn.accept("pid " + p.pid() + ": " + r.problem());
      }
      // The OS's command line is complete; a runtime asked early reports only the host path.
      String commandLine =
          p.commandLine() != null ? p.commandLine() : i == null ? null : i.commandLine();
      boolean waiting = waitsAtStartup(p, i);
      if (waiting) {
        warn.accept(
            "pid "
                + p.pid()
                + " waits at startup for a diagnostic tool: "
                + releaseHint(locator, p));
      }
      listed.add(new Listed(p, i, i == null ? null : waiting ? "waiting" : "running", commandLine));
    }
    if (listed.isEmpty()) {
      // An empty table prints nothing on stdout; a person still learns why nothing is there.
      warn.accept(
          "no .NET processes found; a runtime started with DOTNET_EnableDiagnostics=0 is not"
              + " listed, and one in another container is listed only when this user can read its"
              + " /proc entry");
    }
    return Report.table(SCHEMA, listed);
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
