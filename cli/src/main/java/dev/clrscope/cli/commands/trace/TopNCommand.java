package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.options.OutputFormat;
import dev.clrscope.cli.render.Column;
import dev.clrscope.cli.render.JsonText;
import dev.clrscope.cli.render.Table;
import dev.clrscope.cli.render.TableRenderer;
import dev.clrscope.monitor.profile.MethodSamples;
import dev.clrscope.monitor.profile.SampleProfile;
import dev.clrscope.monitor.profile.SampleTotals;
import dev.clrscope.symbols.FrameResolver;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code clrscope trace report FILE topN}: the methods with the most thread samples, exclusive and
 * inclusive, with percentages, CPU samples told apart from the rest of the thread time.
 */
@Command(
    name = "topN",
    aliases = "topn",
    mixinStandardHelpOptions = true,
    description = {
      "The top N methods of a trace's thread samples (collected with the"
          + " dotnet-sampled-thread-time or cpu-sampling profile): per method the samples with it"
          + " as the innermost frame (exclusive) and anywhere on the stack (inclusive), their share"
          + " of all samples, and how many of them were on CPU (running managed code) rather than"
          + " waiting or in native code. Frames are named as `trace convert` names them."
    })
public final class TopNCommand extends ClrscopeSubcommand {
  @ParentCommand ReportCommand report;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "FILE",
      description = "The nettrace file (or give it before topN).")
  Path input;

  @Option(
      names = {"-n", "--number"},
      paramLabel = "N",
      defaultValue = "5",
      description = "How many methods (default: ${DEFAULT-VALUE}, as in dotnet-trace).")
  int number;

  @Option(
      names = "--inclusive",
      description = "Order by inclusive samples (default: exclusive, as in dotnet-trace).")
  boolean inclusive;

  @Option(
      names = "--thread",
      paramLabel = "TID",
      description = "Only the samples of this thread (its OS thread id).")
  Long thread;

  @Option(
      names = "--signatures",
      description = "Name methods with their parameter types: Namespace.Type.Method(String,Int32).")
  boolean signatures;

  @Mixin FormatOption format;

  @Override
  public Integer call() {
    Path file = input != null ? input : report == null ? null : report.input;
    if (file == null) {
      throw new ParameterException(spec.commandLine(), "give the trace: trace report FILE topN");
    }
    if (input != null && report != null && report.input != null) {
      throw new ParameterException(spec.commandLine(), "give the trace once, before topN");
    }
    if (number < 1) {
      throw new ParameterException(spec.commandLine(), "-n must be 1 or more, not " + number);
    }
    if (thread != null && thread < 0) {
      throw new ParameterException(spec.commandLine(), "--thread takes a thread id (0 or more)");
    }
    FrameResolver frames = TraceFileInput.frames(file, signatures);
    SampleProfile profile = new SampleProfile(frames, thread == null ? -1 : thread);
    TraceFileInput.Fed fed = TraceFileInput.feed(file, profile);
    fed.ending().warnings("reported").forEach(this::warn);
    frames.problems().forEach(this::warn);
    SampleTotals totals = profile.totals();
    if (totals.samples() == 0) {
      warn(
          thread != null
              ? "the trace has no thread samples of thread " + thread
              : "the trace has no thread samples (collect with --profile"
                  + " dotnet-sampled-thread-time)");
    } else if (frames.managed().size() == 0) {
      warn("the trace has no method load or rundown events, so frames are hex addresses");
    }
    List<MethodSamples> top = profile.top(number, inclusive);
    Table table =
        new Table(
            List.of(
                Column.number("rank", "#"),
                Column.number("exclusive", "EXCL"),
                Column.number("exclusivePercent", "EXCL %"),
                Column.number("exclusiveCpu", "EXCL CPU"),
                Column.number("inclusive", "INCL"),
                Column.number("inclusivePercent", "INCL %"),
                Column.number("inclusiveCpu", "INCL CPU"),
                Column.text("method", "METHOD")));
    int rank = 1;
    for (MethodSamples m : top) {
      table.add(
          rank++,
          m.exclusive(),
          percent(m.exclusive(), totals.samples()),
          m.exclusiveCpu(),
          m.inclusive(),
          percent(m.inclusive(), totals.samples()),
          m.inclusiveCpu(),
          m.name());
    }
    OutputFormat f = format.format();
    TableRenderer renderer = new TableRenderer(out());
    switch (f) {
      case csv -> renderer.list(table, f);
      case json -> {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("file", file.toString());
        doc.put("orderedBy", inclusive ? "inclusive" : "exclusive");
        doc.put("thread", thread);
        doc.put("samples", totals.samples());
        doc.put("cpuSamples", totals.cpu());
        doc.put("externalSamples", totals.external());
        doc.put("threads", totals.threads());
        doc.put("frames", totals.frames());
        doc.put("methods", table.objects());
        out().println(JsonText.of(doc));
        out().flush();
      }
      default -> {
        out()
            .println(
                String.format(
                    Locale.ROOT,
                    "%,d samples%s: %,d on CPU (running managed code), %,d waiting or in native code;"
                        + " %d thread%s; top %d by %s",
                    totals.samples(),
                    thread == null ? "" : " of thread " + thread,
                    totals.cpu(),
                    totals.external(),
                    totals.threads(),
                    totals.threads() == 1 ? "" : "s",
                    number,
                    inclusive ? "inclusive samples" : "exclusive samples"));
        renderer.list(table, f);
      }
    }
    return 0;
  }

  /** {@code part} as a percentage of {@code whole}, two decimals. */
  private static BigDecimal percent(long part, long whole) {
    return whole == 0
        ? BigDecimal.ZERO.setScale(2)
        : BigDecimal.valueOf(part * 100.0 / whole).setScale(2, RoundingMode.HALF_UP);
  }
}
