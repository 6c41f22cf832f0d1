package dev.clrscope.cli.commands.counters;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.attach.TargetResolver;
import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.options.DurationParser;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.options.TargetSpec;
import dev.clrscope.cli.render.Column;
import dev.clrscope.cli.render.Table;
import dev.clrscope.cli.render.TableRenderer;
import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.discovery.EndpointLocator;
import dev.clrscope.monitor.counters.CounterPlan;
import dev.clrscope.monitor.counters.CounterSource;
import dev.clrscope.monitor.counters.Instrument;
import dev.clrscope.monitor.counters.Measurement;
import dev.clrscope.monitor.counters.WellKnownCounters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code clrscope counters list}: the well-known counters, or what one process publishes. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = {
      "List counters. Without a process: the well-known providers and their instruments, with"
          + " units and descriptions. With -p PID or -n NAME: what that process publishes,"
          + " discovered by listening (every instrument of every Meter, and the EventCounters of"
          + " the well-known EventSources and of those named with --event-source)."
    })
public final class ListCountersCommand extends ClrscopeSubcommand {
  /** EventSources with counters that a process may have: EventSources cannot be enumerated. */
  private static final List<String> KNOWN_EVENT_SOURCES =
      List.of(
          "System.Runtime",
          "Microsoft.AspNetCore.Hosting",
          "Microsoft-AspNetCore-Server-Kestrel",
          "System.Net.Http",
          "System.Net.NameResolution",
          "System.Net.Security",
          "System.Net.Sockets");

  @Mixin FormatOption format;

  @Option(
      names = {"-p", "--process-id"},
      paramLabel = "PID",
      description = "List what this process publishes.")
  Long pid;

  @Option(
      names = {"-n", "--name"},
      paramLabel = "NAME",
      description = "List what the process of this name publishes (must be unique).")
  String name;

  @Option(
      names = "--event-source",
      paramLabel = "NAME",
      description = "Also listen for this EventSource's EventCounters (repeatable).")
  List<String> eventSources = new ArrayList<>();

  @Option(
      names = "--duration",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      defaultValue = "2s",
      description =
          "How long to listen to a process (default: ${DEFAULT-VALUE}; EventCounters report once"
              + " a second).")
  Duration duration = Duration.ofSeconds(2);

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "10",
      description = "How long to wait for the target to answer (default: ${DEFAULT-VALUE} s).")
  int timeoutSeconds = 10;

  @Override
  public Integer call() {
    Table table =
        new Table(
            List.of(
                Column.text("provider", "PROVIDER"),
                Column.text("source", "SOURCE"),
                Column.text("name", "NAME"),
                Column.text("type", "TYPE"),
                Column.text("unit", "UNIT"),
                Column.text("description", "DESCRIPTION")));
    if (pid != null && name != null) {
      throw new ParameterException(spec.commandLine(), "choose -p or -n, not both");
    }
    if (pid == null && name == null) {
      if (!eventSources.isEmpty()) {
        throw new ParameterException(spec.commandLine(), "--event-source needs -p PID or -n NAME");
      }
      for (WellKnownCounters.Provider p : WellKnownCounters.providers()) {
        for (Instrument i : p.instruments()) {
          add(table, i, p.since());
        }
      }
    } else {
      discover(table);
    }
    new TableRenderer(out()).list(table, format.format());
    return 0;
  }

  private static void add(Table table, Instrument i, String since) {
    String source = i.source() == CounterSource.METER ? "Meter" : "EventCounters";
    table.add(
        i.provider(),
        since == null ? source : source + " (" + since + ")",
        i.name(),
        i.type() == null ? null : i.type().label(),
        i.unit().isEmpty() ? null : i.unit(),
        i.description().isEmpty() ? null : i.description());
  }

  private void discover(Table table) {
    if (timeoutSeconds <= 0) {
      throw new ParameterException(spec.commandLine(), "--timeout must be positive");
    }
    Duration timeout = Duration.ofSeconds(timeoutSeconds);
    TargetSpec target =
        pid != null ? new TargetSpec.ByPid(pid, timeout) : new TargetSpec.ByName(name, timeout);
    Set<String> sources = new LinkedHashSet<>(KNOWN_EVENT_SOURCES);
    sources.addAll(eventSources);
    CounterPlan plan = CounterPlan.discovery(List.copyOf(sources), 1);
    // Keyed on provider, source and name: each instrument once, in the order heard.
    Map<String, Instrument> found = new LinkedHashMap<>();
    try (AttachedTarget attached =
        new TargetResolver(new EndpointLocator(), err()).attach(target)) {
      err()
          .println(
              "Listening to "
                  + attached.describe()
                  + " for "
                  + duration.toMillis() / 1000.0
                  + " s...");
      CounterSession session =
          CounterSession.start(
              attached.client(),
              plan,
              u -> {
                Instrument i = null;
                if (u instanceof Instrument announced) {
                  i = announced;
                } else if (u instanceof Measurement m
                    && m.source() == CounterSource.EVENT_COUNTERS) {
                  i =
                      new Instrument(
                          m.provider(),
                          m.source(),
                          m.name(),
                          m.displayName(),
                          m.type(),
                          m.unit(),
                          m.displayName());
                }
                if (i != null) {
                  synchronized (found) {
                    found.putIfAbsent(
                        i.provider() + "\u0000" + i.source() + "\u0000" + i.name(), i);
                  }
                }
              },
              () -> {});
      try {
        Thread.sleep(duration.toMillis());
        session.stopAndDrain(Duration.ofSeconds(10));
      } finally {
        session.close();
      }
      if (session.failure() != null) {
        warn("the trace stream broke off: " + session.failure().getMessage());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommandFailure("interrupted", e);
    } catch (DiagnosticsException e) {
      throw e;
    }
    List<Instrument> sorted;
    synchronized (found) {
      sorted = new ArrayList<>(found.values());
    }
    sorted.sort(
        Comparator.comparing(Instrument::provider)
            .thenComparing(Instrument::source)
            .thenComparing(Instrument::name));
    for (Instrument i : sorted) {
      add(table, i, null);
    }
    if (sorted.isEmpty()) {
      warn("the process published no instruments while clrscope listened");
    }
  }
}
