package dev.clrscope.cli.commands.counters;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.output.CheckedOutputStream;
import dev.clrscope.cli.output.IoErrors;
import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.cli.render.OutputFormat;
import dev.clrscope.cli.render.Records;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Result;
import dev.clrscope.monitor.counters.CounterBoard;
import dev.clrscope.monitor.counters.CounterPlan;
import dev.clrscope.monitor.counters.Measurement;
import dev.clrscope.monitor.counters.SessionProblem;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code clrscope counters collect}: every value, as CSV, JSON or JSON Lines. */
@Command(
    name = "collect",
    mixinStandardHelpOptions = true,
    description = {
      "Record counter values to a file or stdout until stopped (Ctrl+C, Enter, --duration, or the"
          + " target exiting). Timestamps are the target's, in UTC."
    })
public final class CollectCountersCommand extends CounterSessionCommand {
  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "csv",
      converter = Formats.class,
      completionCandidates = Formats.class,
      description =
          "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}): csv and json as dotnet-counters"
              + " writes them; jsonl one object per measurement as it comes. The live table is"
              + " `counters monitor`.")
  OutputFormat format = OutputFormat.csv;

  @Option(
      names = "--layout",
      paramLabel = "dotnet-counters|full",
      converter = CounterRecords.Layout.Converter.class,
      description =
          "The records: dotnet-counters' (a line per value, as its readers expect; csv and json)"
              + " or full (clrscope's whole measurements: tags, unit, type, min, max, count,"
              + " percentiles). Default: dotnet-counters for csv and json, full for jsonl.")
  CounterRecords.Layout layout;

  /** The formats {@code counters collect} offers: no table ({@code counters monitor} is one). */
  static final class Formats
      implements picocli.CommandLine.ITypeConverter<OutputFormat>, Iterable<String> {
    private static final List<OutputFormat> OFFERED =
        List.of(OutputFormat.csv, OutputFormat.json, OutputFormat.jsonl);

    @Override
    public OutputFormat convert(String value) {
      if (value.strip().equalsIgnoreCase("json-full")) {
        throw new picocli.CommandLine.TypeConversionException(
            "json-full is now --format json --layout full");
      }
      return FormatOption.parse(value, OFFERED);
    }

    @Override
    public java.util.Iterator<String> iterator() {
      return OFFERED.stream().map(Enum::name).iterator();
    }
  }

  @Override
  protected void validate() {
    super.validate();
    if (!output.equals("-")) {
      OutputFile.check(Path.of(output), "-o");
    }
    if (layout == CounterRecords.Layout.dotnetCounters && format == OutputFormat.jsonl) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(),
          "--layout dotnet-counters has no JSON Lines form: choose --format csv or json, or"
              + " --layout full");
    }
  }

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE|-",
      defaultValue = "-",
      description = "Where to write: a file, or - for stdout (default).")
  String output = "-";

  @Override
  protected Result records(CounterPlan plan, AttachedTarget attached) {
    CounterBoard board = new CounterBoard(plan);
    CheckedOutputStream file = output.equals("-") ? null : open(Path.of(output));
    AtomicLong written = new AtomicLong();
    Result records =
        (layout != null ? layout : CounterRecords.Layout.defaultFor(format))
                == CounterRecords.Layout.dotnetCounters
            ? Records.of(
                CounterRecords.dotnetCounters(processName(attached)),
                sink -> {
                  session(
                      plan,
                      attached,
                      board,
                      file,
                      written,
                      sink,
                      m -> CounterRecords.lines(m, plan.refreshSeconds()));
                  // dotnet-counters' document has nothing after its events.
                  return null;
                })
            : Records.of(
                CounterRecords.full(about(attached)),
                sink -> {
                  String why = session(plan, attached, board, file, written, sink, List::of);
                  return CounterRecords.summary(why, board.neverSeen());
                });
    err()
        .println(
            "Collecting counters of "
                + attached.describe()
                + " ("
                + String.join(",", plan.requests().stream().map(Object::toString).toList())
                + ") every "
                + CounterText.exact(options.refreshSeconds)
                + " s"
                + (file == null ? "" : " into " + output)
                + "; Ctrl+C to stop.");
    if (file == null) {
      return records;
    }
    // Into the file, drawn by the renderer that would draw them on stdout.
    try (PrintStream into = new PrintStream(file, false, StandardCharsets.UTF_8)) {
      Renderer.of(format, into, err(), 0).draw(records);
    }
    if (file.failure() != null) {
      throw new CommandFailure(
          "could not write "
              + output
              + ": "
              + IoErrors.reason(file.failure())
              + " (after "
              + written.get()
              + " records)");
    }
    return Result.done();
  }

  private static CheckedOutputStream open(Path file) {
    try {
      return new CheckedOutputStream(Files.newOutputStream(file));
    } catch (IOException e) {
      throw OutputFile.failure(file, e);
    }
  }

  /** What clrscope's JSON document says of the session before its measurements. */
  private Map<String, Object> about(AttachedTarget attached) {
    Map<String, Object> about = new LinkedHashMap<>();
    about.put("target", attached.describe());
    about.put("pid", attached.pid() > 0 ? attached.pid() : null);
    about.put("processName", processName(attached));
    about.put("counters", options.counters);
    about.put("refreshIntervalSeconds", options.refreshSeconds);
    return about;
  }

  /**
   * Runs the session, the records of each new measurement ({@code records}) into {@code sink}; says
   * what was never seen and how many records were written; returns why it stopped.
   */
  private <R> String session(
      CounterPlan plan,
      AttachedTarget attached,
      CounterBoard board,
      CheckedOutputStream file,
      AtomicLong written,
      Records.Sink<R> sink,
      Function<Measurement, List<? extends R>> records) {
    sink.start();
    String why =
        watchCounters(
            plan,
            attached,
            update -> {
              if (!board.accept(update)) {
                return;
              }
              if (update instanceof Measurement m) {
                for (R r : records.apply(m)) {
                  sink.write(r);
                  written.incrementAndGet();
                }
              } else if (update instanceof SessionProblem p) {
                warn(p.message());
              }
            },
            stop -> {
              if (file != null) {
                // A full disk ends the session at once, as a closed stdout does.
                file.onFailure(() -> stop.request("could not write " + output));
              }
            });
    board.neverSeen().forEach(this::warn);
    err()
        .println(
            "Stopped ("
                + (why == null ? "the stream ended" : why)
                + "): "
                + written.get()
                + " records"
                + (file == null ? "" : " in " + output)
                + " from "
                + attached.describe()
                + ".");
    return why;
  }

  /** The target's process name, as dotnet-counters' JSON names it, or its description. */
  private static String processName(AttachedTarget attached) {
    if (attached.pid() > 0) {
      return ProcessHandle.of(attached.pid())
          .flatMap(h -> h.info().command())
          .map(c -> Path.of(c).getFileName().toString())
          .orElse(attached.describe());
    }
    return attached.describe();
  }
}
