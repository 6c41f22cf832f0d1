package dev.clrscope.cli.commands.gc;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.options.DurationOption;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.options.OutputFormat;
import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Terminal;
import dev.clrscope.monitor.gc.GcAssembler;
import dev.clrscope.monitor.gc.GcRecord;
import dev.clrscope.monitor.gc.GcSummary;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.session.StopSwitch;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code clrscope gcstats}: every GC of a live process as it happens, and a summary. */
@Command(
    name = "gcstats",
    mixinStandardHelpOptions = true,
    description = {
      "Watch a process's GCs: one row per GC as it completes (number, generation, type, reason,"
          + " pause, sizes before and after, per-generation sizes, promoted, fragmentation, pinned"
          + " objects, condemn reasons, pause mode, mechanisms), and a summary when it stops"
          + " (Ctrl+C, Enter, --duration, or the target exiting)."
    })
public final class GcStatsCommand extends AttachingCommand {
  @Mixin FormatOption format;

  @Option(
      names = "--per-heap",
      description = "Also print each heap's history: budget, sizes, survived, fragmentation.")
  boolean perHeap;

  @Mixin DurationOption durationOption;

  @Option(
      names = "--columns",
      paramLabel = "all|COLUMN,...",
      description =
          "The table's columns: all, or headings such as GC#,REASON,PAUSE_MS (default: as many as"
              + " fit the terminal, most useful first; output that is not a terminal gets all).")
  String columns;

  @Option(
      names = "--chart",
      paramLabel = "FILE.svg|FILE.png",
      description = "Also draw heap size per generation and pauses over time into FILE.")
  Path chart;

  /** The fields to print, and a note on stderr when the terminal's width left columns out. */
  private RecordSchema<GcRecord> fields() {
    int width = format.format() == OutputFormat.table ? Terminal.stdoutColumns() : 0;
    RecordSchema<GcRecord> fields;
    try {
      fields = GcOutput.schema(perHeap, columns, width);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--columns: " + e.getMessage());
    }
    int shown = fields.tableKeys().size();
    int all = GcOutput.schema(perHeap).tableKeys().size();
    if (columns == null && shown < all) {
      err()
          .println(
              "Showing "
                  + shown
                  + " of "
                  + all
                  + " columns to fit "
                  + width
                  + " terminal columns: --columns all shows every one, as do csv, json and"
                  + " redirected output.");
    }
    return fields;
  }

  @Override
  protected void validate() {
    if (chart != null) {
      String n = chart.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
      if (!n.endsWith(".svg") && !n.endsWith(".png")) {
        throw new ParameterException(
            spec.commandLine(), "--chart takes a file ending in .svg or .png, got " + chart);
      }
      OutputFile.check(chart, "--chart");
    }
  }

  @Override
  protected int run(AttachedTarget attached) {
    GcOutput output = new GcOutput(out(), err(), format.format(), perHeap, fields());
    GcSummary.Accumulator summary = new GcSummary.Accumulator();
    GcChart.Series series = chart == null ? null : new GcChart.Series();
    GcAssembler assembler =
        new GcAssembler(
            r -> {
              summary.add(r);
              if (series != null) {
                series.add(r);
              }
              output.gc(r);
            });
    SessionResult result =
        watch(
            attached,
            GcAssembler.sessionRequest(0, Map.of()).withDuration(durationOption.duration()),
            new StopSwitch(),
            true,
            session -> {
              // A launched child (or a runtime on a suspending port) starts only now, so its
              // first GC is already watched.
              announceWatching("the GCs", attached, durationOption.duration());
              output.header();
              return session.finish();
            },
            assembler);
    warnAboutStream(result, "some GCs may be incomplete");
    GcSummary s =
        summary.build(result.observedNanos(), assembler.pausedNanos(), assembler.unfinishedGcs());
    output.summary(s, result.stopReason());
    if (series != null) {
      GcChart.write(chart, series, attached.describe());
      err().println("Chart written to " + chart.toAbsolutePath());
    }
    return 0;
  }
}
