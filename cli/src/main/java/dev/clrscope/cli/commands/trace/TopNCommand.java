package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.options.LineOptions;
import dev.clrscope.cli.options.SymbolServerOption;
import dev.clrscope.cli.options.TopOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.FrameFields;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.profile.MethodSamples;
import dev.clrscope.monitor.profile.SampleProfile;
import dev.clrscope.monitor.profile.SampleTotals;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.symbols.FrameResolver;
import dev.clrscope.symbols.ManagedCodeMap;
import dev.clrscope.symbols.SourceLines;
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
          + " waiting or in native code. Frames are named as `trace convert` names them; with"
          + " the method's PDB, each row has the line where most of its samples fell, and"
          + " --by-line ranks the source lines themselves."
    })
public final class TopNCommand extends ClrscopeSubcommand {
  @ParentCommand ReportCommand report;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "FILE",
      description = "The nettrace file (or give it before topN).")
  Path input;

  /**
   * dotnet-trace's {@code -n|--number}: {@code trace report} reads a file and has no process to
   * name, so {@code -n} is dotnet-trace's here; {@code --top} as in every command.
   */
  @Option(
      names = {"-n", "--number", "--top", "-N"},
      paramLabel = "N",
      defaultValue = "10",
      description =
          "How many methods (default: ${DEFAULT-VALUE}, as every command's --top; 0 for all);"
              + " -n and --number as dotnet-trace spells it.")
  int number = TopOption.DEFAULT;

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

  @Option(
      names = "--by-line",
      description =
          "Rank source lines instead of methods: each row a method and one of its lines, its"
              + " samples counted per line (needs the methods' PDBs; see --symbol-path).")
  boolean byLine;

  @Mixin LineOptions lines;

  @Mixin SymbolServerOption symbolServer;

  @Mixin FormatOption format;

  @Override
  protected Result run() {
    Path file = input != null ? input : report == null ? null : report.input;
    if (file == null) {
      throw new ParameterException(spec.commandLine(), "give the trace: trace report FILE topN");
    }
    if (input != null && report != null && report.input != null) {
      throw new ParameterException(spec.commandLine(), "give the trace once, before topN");
    }
    TopOption.check(spec, "-n", number);
    if (thread != null && thread < 0) {
      throw new ParameterException(spec.commandLine(), "--thread takes a thread id (0 or more)");
    }
    if (byLine && !lines.enabled()) {
      throw new ParameterException(spec.commandLine(), "--by-line needs lines: drop --no-lines");
    }
    SourceLines source = lines.sourceLines(symbolServer.server());
    ManagedCodeMap methods = new ManagedCodeMap();
    if (source != null) {
      methods.withLines(source);
    }
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
    int count = TopOption.count(number);
    List<MethodSamples> top =
        byLine ? profile.topLines(count, inclusive) : profile.top(count, inclusive);
    // Said once the frames were named: a library is read when a frame first needs it.
    frames.problems().forEach(this::warn);
    List<Ranked> rows = new ArrayList<>();
    for (MethodSamples m : top) {
      rows.add(new Ranked(rows.size() + 1, m, totals.samples()));
    }
    return Report.builder()
        .values(HEAD, new Head(file.toString(), inclusive, byLine, thread, number, totals))
        .rows(byLine ? "lines" : "methods", null, methods(source != null), rows)
        .primary()
        .build();
  }

  /** The samples a report counted, and how it orders methods. */
  private record Head(
      String file, boolean inclusive, boolean byLine, Long thread, int top, SampleTotals totals) {
    String orderedBy() {
      return inclusive ? "inclusive" : "exclusive";
    }

    String line() {
      return String.format(
          Locale.ROOT,
          "%,d samples%s: %,d on CPU (running managed code), %,d waiting or in native code;"
              + " %d thread%s; top %d %sby %s",
          totals.samples(),
          thread == null ? "" : " of thread " + thread,
          totals.cpu(),
          totals.external(),
          totals.threads(),
          totals.threads() == 1 ? "" : "s",
          top,
          byLine ? "lines " : "",
          inclusive ? "inclusive samples" : "exclusive samples");
    }
  }

  private static final RecordSchema<Head> HEAD =
      new RecordSchema<>(
          null,
          List.of(
              Field.data("file", Unit.TEXT, Head::file),
              Field.data("orderedBy", Unit.TEXT, Head::orderedBy),
              Field.data("ranked", Unit.TEXT, (Head h) -> h.byLine() ? "lines" : "methods"),
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
  record Ranked(int rank, MethodSamples m, long samples) {}

  /** The rows' schema: with lines, the hottest (or the row's) line after the method. */
  static RecordSchema<Ranked> methods(boolean withLines) {
    List<Field<Ranked>> f = new ArrayList<>();
    f.add(Field.of("rank", "#", 0, Unit.COUNT, Ranked::rank));
    f.add(Field.of("exclusive", "EXCL", 0, Unit.COUNT, (Ranked r) -> r.m().exclusive()));
    f.add(
        Field.of(
            "exclusivePercent",
            "EXCL %",
            0,
            Unit.PERCENT,
            (Ranked r) -> Unit.percent(r.m().exclusive(), r.samples())));
    f.add(Field.of("exclusiveCpu", "EXCL CPU", 0, Unit.COUNT, (Ranked r) -> r.m().exclusiveCpu()));
    f.add(Field.of("inclusive", "INCL", 0, Unit.COUNT, (Ranked r) -> r.m().inclusive()));
    f.add(
        Field.of(
            "inclusivePercent",
            "INCL %",
            0,
            Unit.PERCENT,
            (Ranked r) -> Unit.percent(r.m().inclusive(), r.samples())));
    f.add(Field.of("inclusiveCpu", "INCL CPU", 0, Unit.COUNT, (Ranked r) -> r.m().inclusiveCpu()));
    f.add(Field.of("method", "METHOD", 0, Unit.TEXT, (Ranked r) -> r.m().name()).cutAtStart());
    if (withLines) {
      f.addAll(FrameFields.lineFields((Ranked r) -> r.m().line(), "LINE"));
    }
    // What a narrow terminal keeps: the method and its line whole, then the counts; the CPU
    // columns and the rank go first.
    return new RecordSchema<Ranked>(null, f)
        .withPriority(
            List.of(
                "method",
                "source",
                "exclusive",
                "inclusive",
                "exclusivePercent",
                "inclusivePercent",
                "rank"))
        .withKey("method");
  }
}
