package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.profile.MethodSamples;
import dev.clrscope.monitor.profile.SampleProfile;
import dev.clrscope.monitor.profile.SampleTotals;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.symbols.FrameResolver;
import dev.clrscope.symbols.ManagedCodeMap;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
      names = {"-N", "--number", "--top"},
      paramLabel = "N",
      defaultValue = "5",
      description = "How many methods (default: ${DEFAULT-VALUE}, as in dotnet-trace).")
  int number;

  /** dotnet-trace's {@code -n}: in clrscope {@code -n} is always a process name. */
  @Option(names = "-n", hidden = true, paramLabel = "N")
  String dotnetTraceNumber;

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
    if (dotnetTraceNumber != null) {
      throw new ParameterException(
          spec.commandLine(),
          "-n is a process name in every clrscope command: give the number of methods with -N "
              + dotnetTraceNumber
              + " (--number)");
    }
    if (number < 1) {
      throw new ParameterException(spec.commandLine(), "-n must be 1 or more, not " + number);
    }
    if (thread != null && thread < 0) {
      throw new ParameterException(spec.commandLine(), "--thread takes a thread id (0 or more)");
    }
    ManagedCodeMap methods = new ManagedCodeMap();
    SampleProfile[] profiled = new SampleProfile[1];
    FrameResolver[] resolver = new FrameResolver[1];
    SessionResult read =
        TraceFileInput.read(
            file,
            trace -> {
              resolver[0] =
                  FrameResolver.forTrace(file, trace.header().processId(), methods, signatures);
              profiled[0] = new SampleProfile(resolver[0], thread == null ? -1 : thread);
              return trace.feed(methods::accept, profiled[0]);
            });
    TraceFileInput.warnings(read, "reported").forEach(this::warn);
    SampleProfile profile = profiled[0];
    FrameResolver frames = resolver[0];
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
    // Said once the frames were named: a library is read when a frame first needs it.
    frames.problems().forEach(this::warn);
    List<Ranked> rows = new ArrayList<>();
    for (MethodSamples m : top) {
      rows.add(new Ranked(rows.size() + 1, m, totals.samples()));
    }
    format
        .renderer(out(), err())
        .report(
            Report.builder()
                .values(HEAD, new Head(file.toString(), inclusive, thread, number, totals))
                .rows("methods", null, METHODS, rows)
                .primary()
                .build());
    return 0;
  }

  /** The samples a report counted, and how it orders methods. */
  private record Head(String file, boolean inclusive, Long thread, int top, SampleTotals totals) {
    String orderedBy() {
      return inclusive ? "inclusive" : "exclusive";
    }

    String line() {
      return String.format(
          Locale.ROOT,
          "%,d samples%s: %,d on CPU (running managed code), %,d waiting or in native code;"
              + " %d thread%s; top %d by %s",
          totals.samples(),
          thread == null ? "" : " of thread " + thread,
          totals.cpu(),
          totals.external(),
          totals.threads(),
          totals.threads() == 1 ? "" : "s",
          top,
          inclusive ? "inclusive samples" : "exclusive samples");
    }
  }

  private static final RecordSchema<Head> HEAD =
      new RecordSchema<>(
          null,
          List.of(
              Field.data("file", Unit.TEXT, Head::file),
              Field.data("orderedBy", Unit.TEXT, Head::orderedBy),
              Field.data("thread", Unit.ID, Head::thread),
              Field.of("samples", "Samples", 0, Unit.COUNT, (Head h) -> h.totals().samples())
                  .only(Field.Shown.DATA),
              Field.data("cpuSamples", Unit.COUNT, (Head h) -> h.totals().cpu()),
              Field.data("externalSamples", Unit.COUNT, (Head h) -> h.totals().external()),
              Field.data("threads", Unit.COUNT, (Head h) -> h.totals().threads()),
              Field.data("frames", Unit.COUNT, (Head h) -> h.totals().frames()),
              Field.of("summary", "", 0, Unit.TEXT, (Head h) -> null)
                  .cell(Head::line)
                  .only(Field.Shown.TABLE)));

  /** A method and its rank. */
  private record Ranked(int rank, MethodSamples m, long samples) {}

  private static final RecordSchema<Ranked> METHODS =
      new RecordSchema<Ranked>(
              null,
              List.of(
                  Field.of("rank", "#", 0, Unit.COUNT, Ranked::rank),
                  Field.of("exclusive", "EXCL", 0, Unit.COUNT, (Ranked r) -> r.m().exclusive()),
                  Field.of(
                      "exclusivePercent",
                      "EXCL %",
                      0,
                      Unit.PERCENT,
                      (Ranked r) -> Unit.percent(r.m().exclusive(), r.samples())),
                  Field.of(
                      "exclusiveCpu",
                      "EXCL CPU",
                      0,
                      Unit.COUNT,
                      (Ranked r) -> r.m().exclusiveCpu()),
                  Field.of("inclusive", "INCL", 0, Unit.COUNT, (Ranked r) -> r.m().inclusive()),
                  Field.of(
                      "inclusivePercent",
                      "INCL %",
                      0,
                      Unit.PERCENT,
                      (Ranked r) -> Unit.percent(r.m().inclusive(), r.samples())),
                  Field.of(
                      "inclusiveCpu",
                      "INCL CPU",
                      0,
                      Unit.COUNT,
                      (Ranked r) -> r.m().inclusiveCpu()),
                  Field.of("method", "METHOD", 0, Unit.TEXT, (Ranked r) -> r.m().name())))
          .withPriority(
              List.of(
                  "rank",
                  "exclusive",
                  "inclusive",
                  "method",
                  "exclusivePercent",
                  "inclusivePercent"));
}
