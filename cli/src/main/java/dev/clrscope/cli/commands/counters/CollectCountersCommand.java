package dev.clrscope.cli.commands.counters;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.OutputFormat;
import dev.clrscope.cli.output.CheckedOutputStream;
import dev.clrscope.cli.output.IoErrors;
import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.monitor.counters.CounterBoard;
import dev.clrscope.monitor.counters.CounterPlan;
import dev.clrscope.monitor.counters.CounterUpdate;
import dev.clrscope.monitor.counters.Measurement;
import dev.clrscope.monitor.counters.SessionProblem;
import dev.clrscope.monitor.session.StopSwitch;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
      converter = CounterRecordWriter.Layout.Converter.class,
      description =
          "The records: dotnet-counters' (a line per value, as its readers expect; csv and json)"
              + " or full (clrscope's whole measurements: tags, unit, type, min, max, count,"
              + " percentiles). Default: dotnet-counters for csv and json, full for jsonl.")
  CounterRecordWriter.Layout layout;

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
    if (format == OutputFormat.jsonl && layout == CounterRecordWriter.Layout.dotnetCounters) {
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

  private PrintStream sink;
  private CheckedOutputStream checked;
  private CounterRecordWriter writer;
  private CounterBoard board;
  private AttachedTarget attached;

  @Override
  protected void begin(CounterPlan plan, AttachedTarget attached) {
    this.attached = attached;
    board = new CounterBoard(plan);
    if (output.equals("-")) {
      sink = out();
    } else {
      Path file = Path.of(output);
      try {
        checked = new CheckedOutputStream(Files.newOutputStream(file));
        sink = new PrintStream(checked, false, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw OutputFile.failure(file, e);
      }
    }
    writer =
        new CounterRecordWriter(
            Renderer.of(format, sink, err(), 0),
            layout != null
                ? layout
                : format == OutputFormat.jsonl
                    ? CounterRecordWriter.Layout.full
                    : CounterRecordWriter.Layout.dotnetCounters,
            plan.refreshSeconds());
    Map<String, Object> about = new LinkedHashMap<>();
    about.put("target", attached.describe());
    about.put("pid", attached.pid() > 0 ? attached.pid() : null);
    about.put("processName", processName(attached));
    about.put("counters", options.counters);
    about.put("refreshIntervalSeconds", options.refreshSeconds);
    writer.start(about);
    err()
        .println(
            "Collecting counters of "
                + attached.describe()
                + " ("
                + String.join(",", plan.requests().stream().map(Object::toString).toList())
                + ") every "
                + CounterText.exact(options.refreshSeconds)
                + " s"
                + (output.equals("-") ? "" : " into " + output)
                + "; Ctrl+C to stop.");
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

  @Override
  protected void whileRunning(StopSwitch stop) {
    if (checked != null) {
      // A full disk ends the session at once, as a closed stdout does: nothing more can be kept.
      checked.onFailure(() -> stop.request("could not write " + output));
    }
  }

  @Override
  protected void accept(CounterUpdate update) {
    if (!board.accept(update)) {
      return;
    }
    if (update instanceof Measurement m) {
      writer.write(m);
    } else if (update instanceof SessionProblem p) {
      warn(p.message());
    }
  }

  @Override
  protected void end(String stopReason) {
    List<String> notes = new ArrayList<>(board.neverSeen());
    writer.finish(notes, stopReason);
    notes.forEach(this::warn);
    if (sink != out()) {
      sink.close();
    }
    if (checked != null && checked.failure() != null) {
      throw new CommandFailure(
          "could not write "
              + output
              + ": "
              + IoErrors.reason(checked.failure())
              + " (after "
              + writer.written()
              + " records)");
    }
    err()
        .println(
            "Stopped ("
                + (stopReason == null ? "the stream ended" : stopReason)
                + "): "
                + writer.written()
                + " records"
                + (output.equals("-") ? "" : " in " + output)
                + " from "
                + attached.describe()
                + ".");
  }
}
