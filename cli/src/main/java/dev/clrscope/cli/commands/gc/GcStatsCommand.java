package dev.clrscope.cli.commands.gc;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.options.DurationOption;
import dev.clrscope.cli.options.StreamFormatOption;
import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Records;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
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
          + " (Ctrl+C, Enter, --duration, or the target exiting). Give FILE.nettrace instead of a"
          + " target to read a saved trace recorded with the GC keyword (such as `trace collect"
          + " --profile gc-verbose`)."
    })
public final class GcStatsCommand extends AttachingCommand {
  @Mixin StreamFormatOption format;

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

  /** The fields to print: every one, or the columns {@code --columns} names. */
  private RecordSchema<GcRecord> fields() {
    try {
      return GcOutput.schema(perHeap, columns, 0);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--columns: " + e.getMessage());
    }
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
    fields();
  }

  /** What one run of gcstats gathers: the rows as they come, the summary and the chart. */
  private final class Watch {
    final GcSummary.Accumulator summary = new GcSummary.Accumulator();
    final GcChart.Series series = chart == null ? null : new GcChart.Series();
    final GcAssembler assembler;

    Watch(Records.Sink<GcRecord> sink) {
      assembler =
          new GcAssembler(
              r -> {
                summary.add(r);
                if (series != null) {
                  series.add(r);
                }
                sink.write(r);
              });
    }

    /** The summary, once the chart (if asked for) is written. */
    Report end(long observedNanos, String stopReason, String source) {
      GcSummary s =
          summary.build(observedNanos, assembler.pausedNanos(), assembler.unfinishedGcs());
      if (series != null) {
        if (s.gcs() == 0) {
          // An empty chart says nothing; saying so does.
          warn("no GC was seen, so no chart was written (" + chart + ")");
        } else {
          GcChart.write(chart, series, source);
          err().println("Chart written to " + chart.toAbsolutePath());
        }
      }
      return GcOutput.summaryReport(s, stopReason);
    }
  }

  private Renderer.Stream<GcRecord> stream() {
    return GcOutput.stream(perHeap, fields(), columns == null);
  }

  @Override
  protected boolean readsFiles() {
    return true;
  }

  /** A saved trace recorded with the GC keyword (such as `trace collect --profile gc-verbose`). */
  @Override
  protected Result readFile(Path file) {
    return Records.of(
        stream(),
        sink -> {
          Watch w = new Watch(sink);
          long span = analyseSavedTrace(file, w.assembler);
          return w.end(span, null, file.getFileName().toString());
        });
  }

  @Override
  protected Result run(AttachedTarget attached) {
    return Records.of(
        stream(),
        sink -> {
          Watch w = new Watch(sink);
          SessionResult result =
              watch(
                  attached,
                  GcAssembler.sessionRequest(0, Map.of(), attached.client().runtimeMajorVersion())
                      .withDuration(durationOption.duration()),
                  new StopSwitch(),
                  true,
                  session -> {
                    // A launched child (or a runtime on a suspending port) starts only now, so its
                    // first GC is already watched.
                    announceWatching("the GCs", attached, durationOption.duration());
                    sink.start();
                    return session.finish();
                  },
                  w.assembler);
          warnAboutStream(result, "some GCs may be incomplete");
          return w.end(result.observedNanos(), result.stopReason(), attached.describe());
        });
  }
}
