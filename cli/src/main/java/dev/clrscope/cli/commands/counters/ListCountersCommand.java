package dev.clrscope.cli.commands.counters;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.options.DurationParser;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.counters.CounterFeed;
import dev.clrscope.monitor.counters.CounterPlan;
import dev.clrscope.monitor.counters.CounterSource;
import dev.clrscope.monitor.counters.Instrument;
import dev.clrscope.monitor.counters.Measurement;
import dev.clrscope.monitor.counters.WellKnownCounters;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.session.SessionRunner;
import dev.clrscope.monitor.session.StopSwitch;
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
          + " units and descriptions. With a target (-p PID, -n NAME, --diagnostic-port or"
          + " -- COMMAND): what that process publishes, discovered by listening (every instrument of every Meter, and the EventCounters of"
          + " the well-known EventSources and of those named with --event-source)."
    })
public final class ListCountersCommand extends AttachingCommand {
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

  @Override
  protected boolean needsTarget() {
    return false;
  }

  @Override
  protected void validate() {
    if (!target.isChosen() && !eventSources.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(), "--event-source needs a target: -p PID, -n NAME, ...");
    }
    if (duration.isZero() || duration.isNegative()) {
      throw new ParameterException(spec.commandLine(), "--duration must be positive");
    }
  }

  @Override
  protected Result run() {
    List<Listed> rows = new ArrayList<>();
    for (WellKnownCounters.Provider p : WellKnownCounters.providers()) {
      for (Instrument i : p.instruments()) {
        rows.add(new Listed(i, p.since()));
      }
    }
    return Report.table(SCHEMA, rows);
  }

  @Override
  protected Result run(AttachedTarget attached) {
    List<Listed> rows = new ArrayList<>();
    for (Instrument i : discover(attached)) {
      rows.add(new Listed(i, null));
    }
    return Report.table(SCHEMA, rows);
  }

  /** An instrument as listed, with the runtime version that brought it, if known. */
  private record Listed(Instrument instrument, String since) {
    String source() {
      String source = instrument.source() == CounterSource.METER ? "Meter" : "EventCounters";
      return since == null ? source : source + " (" + since + ")";
    }
  }

  private static final RecordSchema<Listed> SCHEMA =
      new RecordSchema<Listed>(
              null,
              List.of(
                  Field.of(
                      "provider",
                      "PROVIDER",
                      0,
                      Unit.TEXT,
                      (Listed l) -> l.instrument().provider()),
                  Field.of("source", "SOURCE", 0, Unit.TEXT, Listed::source),
                  Field.of("name", "NAME", 0, Unit.TEXT, (Listed l) -> l.instrument().name()),
                  Field.of(
                      "type",
                      "TYPE",
                      0,
                      Unit.TEXT,
                      (Listed l) ->
                          l.instrument().type() == null ? null : l.instrument().type().label()),
                  Field.of(
                      "unit",
                      "UNIT",
                      0,
                      Unit.TEXT,
                      (Listed l) -> l.instrument().unit().isEmpty() ? null : l.instrument().unit()),
                  Field.of(
                      "description",
                      "DESCRIPTION",
                      0,
                      Unit.TEXT,
                      (Listed l) ->
                          l.instrument().description().isEmpty()
                              ? null
                              : l.instrument().description())))
          .withPriority(List.of("name", "provider", "type", "unit", "description", "source"))
          .withKey("name");

  private List<Instrument> discover(AttachedTarget attached) {
    Set<String> sources = new LinkedHashSet<>(KNOWN_EVENT_SOURCES);
    sources.addAll(eventSources);
    CounterPlan plan = CounterPlan.discovery(List.copyOf(sources), 1);
    // Keyed on provider, source and name: each instrument once, in the order heard.
    Map<String, Instrument> found = new LinkedHashMap<>();
    err()
        .println("Listening to " + attached.describe() + " for " + Unit.duration(duration) + "...");
    SessionResult result =
        watch(
            attached,
            plan.sessionRequest().withDuration(duration),
            new StopSwitch(),
            false,
            SessionRunner::finish,
            new CounterFeed(
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
                }));
    warnAboutStream(result, "some instruments may be missing");
    List<Instrument> sorted;
    synchronized (found) {
      sorted = new ArrayList<>(found.values());
    }
    sorted.sort(
        Comparator.comparing(Instrument::provider)
            .thenComparing(Instrument::source)
            .thenComparing(Instrument::name));
    if (sorted.isEmpty()) {
      warn("the process published no instruments while clrscope listened");
    }
    return sorted;
  }
}
