package dev.clrscope.cli.commands.gc;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.options.DurationParser;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.Field.Shown;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.RuntimeKeyword;
import dev.clrscope.monitor.gc.GcAssembler;
import dev.clrscope.monitor.gc.GcRecord;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.session.SessionRunner;
import dev.clrscope.monitor.session.StopSwitch;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code clrscope fullgc}: make the runtime run one blocking gen2 GC now, and show it.
 *
 * <p>Enabling the runtime provider's GCHeapCollect keyword makes the runtime collect. The provider
 * argument {@code Id=N} is meant to come back as the GC's ClientSequenceNumber; the runtime reads
 * it only from ETW filter data on Windows, so over EventPipe on Linux (.NET 10.0.12 checked) the
 * number is 0 and the GC is recognised as the first induced blocking gen2 GC of the session.
 *
 * <p>Runtimes before .NET 10 also collect when such a session is disabled (dotnet/runtime#99487). A
 * second session that only watches GCs is opened first and kept a moment after the inducing session
 * closed: an induced GC it sees after ours is that second GC, and is reported. It must open first:
 * a session enabled while GCHeapCollect is on re-applies the keyword, and induces a GC.
 */
@Command(
    name = "fullgc",
    mixinStandardHelpOptions = true,
    description = {
      "Induce one blocking gen2 GC in the target (through the GCHeapCollect keyword) and print it:"
          + " number, reason, ClientSequenceNumber, pause, heap size before and after. Says if the"
          + " runtime ran a second GC when the session closed. Exits 1 if no GC was seen in time."
    })
public final class FullGcCommand extends AttachingCommand {
  /** How long to watch for a second GC after the inducing session closed. */
  private static final Duration SECOND_GC_WATCH = Duration.ofMillis(1500);

  @Mixin FormatOption format;

  @Option(
      names = "--csn",
      paramLabel = "N",
      description =
          "The Id to pass with the keyword (default: a random positive number). The runtime"
              + " reports it as the GC's ClientSequenceNumber through ETW on Windows; over"
              + " EventPipe on Linux it reports 0.")
  Long csn;

  @Option(
      names = "--wait",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      defaultValue = "10s",
      description = "How long to wait for the GC (default: ${DEFAULT-VALUE}).")
  Duration wait = Duration.ofSeconds(10);

  @Override
  protected boolean releaseFirst() {
    // A runtime still waiting at startup has nothing to collect; let it start first.
    return true;
  }

  @Override
  protected Result run(AttachedTarget attached) {
    long id = csn != null ? csn : 1 + new SecureRandom().nextInt(Integer.MAX_VALUE - 1);
    if (id <= 0 || id > 0xFFFF_FFFFL) {
      throw new ParameterException(
          spec.commandLine(), "--csn takes a number from 1 to 4294967295, got " + id);
    }
    Matcher matcher = new Matcher(id);
    List<GcRecord> watched = new ArrayList<>();
    // The watching session opens first: a session enabled while GCHeapCollect is on re-applies
    // the keyword and induces another GC, so opening it later would cause the GC it looks for.
    StopSwitch watchStop = new StopSwitch();
    GcRecord[] ours = new GcRecord[1];
    boolean[] watchedToTheEnd = new boolean[1];
    watch(
        attached,
        GcAssembler.sessionRequest(0, Map.of(), attached.client().runtimeMajorVersion()),
        watchStop,
        false,
        watcher -> {
          err().println("Inducing a full GC in " + attached.describe() + " (Id=" + id + ") ...");
          // The user's Ctrl+C stops the inducing session too.
          StopSwitch inducingStop = new StopSwitch();
          watchStop.alsoStops(inducingStop);
          SessionResult induced;
          try (SessionRunner inducing =
              SessionRunner.start(
                  attached.client(),
                  GcAssembler.sessionRequest(
                          RuntimeKeyword.MANAGED_HEAP_COLLECT.mask(),
                          Map.of("Id", Long.toString(id)),
                          attached.client().runtimeMajorVersion())
                      .withDuration(wait),
                  inducingStop,
                  new GcAssembler(
                      r -> {
                        if (matcher.offer(r)) {
                          inducingStop.request("the induced GC was seen");
                        }
                      }))) {
            induced = inducing.finish();
          }
          // What the stopped session delivered is final: the tail of a live stream can lag.
          ours[0] = matcher.match();
          if (ours[0] == null) {
            throw noGc(attached, induced, watchStop);
          }
          watchedToTheEnd[0] = !watcher.hasEnded();
          // Watched a moment longer (or until the user stops) for the GC older runtimes run
          // when a session closes.
          watchStop.awaitStop(SECOND_GC_WATCH);
          watchStop.request("done");
          return watcher.finish();
        },
        new GcAssembler(
            r -> {
              synchronized (watched) {
                watched.add(r);
              }
            }));
    List<GcRecord> second = new ArrayList<>();
    synchronized (watched) {
      for (GcRecord r : watched) {
        if (r.number() > ours[0].number() && r.isInduced()) {
          second.add(r);
        }
      }
    }
    return report(
        new Induced(ours[0], id, watchedToTheEnd[0], second.isEmpty() ? null : second.get(0)));
  }

  private CommandFailure noGc(AttachedTarget attached, SessionResult induced, StopSwitch user) {
    if (user.isStopRequested()) {
      return new CommandFailure("stopped (" + user.reason() + ") before the GC was seen");
    }
    if (induced.endedByItself()) {
      return new CommandFailure(
          "no GC was seen: "
              + attached.describe()
              + " ended the session before it ran one ("
              + induced.stopReason()
              + "); fullgc needs a process that keeps running");
    }
    return new CommandFailure(
        "no GC was seen within "
            + wait.toSeconds()
            + " s of enabling the GCHeapCollect keyword in "
            + attached.describe()
            + (induced.failure() != null
                ? " (the trace stream broke off: " + induced.failure().getMessage() + ")"
                : "")
            + " ("
            + attached.client().runtimeName()
            + "): the target may be too busy (GCHeapCollect needs .NET 5 or later); try a longer"
            + " --wait");
  }

  /**
   * What {@code fullgc} reports: the GC, the Id asked for, and the GC the runtime may have run when
   * the session closed.
   *
   * @param gc the induced GC
   * @param requested the Id passed with the keyword
   * @param watched whether the watching session lasted long enough to tell about a second GC
   * @param second the second induced GC, or {@code null}
   */
  record Induced(GcRecord gc, long requested, boolean watched, GcRecord second) {
    boolean clientSequenceNumberMatched() {
      return gc.clientSequenceNumber() == requested;
    }

    /** Whether a second GC ran; {@code null} when that is not known. */
    Boolean secondGcOnClose() {
      return watched ? second != null : null;
    }

    String secondText() {
      if (!watched) {
        return "unknown (the watching session ended early: did the target exit?)";
      }
      return second == null
          ? "no"
          : "yes: GC #"
              + second.number()
              + " ("
              + second.reason()
              + ", gen"
              + second.generation()
              + ") ran when the session closed (dotnet/runtime#99487)";
    }
  }

  /**
   * The report's fields: JSON carries every field of the GC and the report's own; the table and CSV
   * show the GC's main figures, a line each in the table.
   */
  static final RecordSchema<Induced> REPORT = reportSchema();

  private static RecordSchema<Induced> reportSchema() {
    List<Field<Induced>> f = new ArrayList<>();
    Map<String, Field<GcRecord>> gcFields = new LinkedHashMap<>();
    for (Field<GcRecord> g : GcOutput.schema(false).fields()) {
      gcFields.put(g.key(), g);
      if (g.in().json()) {
        f.add(g.<Induced>from(Induced::gc).only(Shown.JSON));
      }
    }
    f.add(
        Field.<Induced>data("requestedClientSequenceNumber", Unit.ID, Induced::requested)
            .only(Shown.JSON));
    f.add(
        Field.<Induced>data(
                "clientSequenceNumberMatched", Unit.TEXT, Induced::clientSequenceNumberMatched)
            .only(Shown.JSON));
    f.add(
        Field.<Induced>data("secondGcOnClose", Unit.TEXT, Induced::secondGcOnClose)
            .only(Shown.JSON));
    f.add(
        Field.<Induced>data(
                "secondGc", Unit.ID, r -> r.second() == null ? null : r.second().number())
            .only(Shown.JSON));
    // The table and CSV: the GC's own fields under longer headings; sizes exact and short.
    Function<Induced, String> notReported =
        r ->
            r.gc().clientSequenceNumber() == 0
                ? "0 (not reported by this runtime)"
                : Long.toString(r.gc().clientSequenceNumber());
    f.add(flat(gcFields, "gc", "GC number", null));
    f.add(flat(gcFields, "generation", "Generation", null));
    f.add(flat(gcFields, "type", "Type", null));
    f.add(flat(gcFields, "reason", "Reason", null));
    f.add(flat(gcFields, "clientSequenceNumber", "ClientSequenceNumber", notReported));
    f.add(flat(gcFields, "pauseMs", "Pause (ms)", null));
    f.add(flat(gcFields, "suspendMs", "Suspension (ms)", null));
    f.add(
        flat(gcFields, "heapSizeBeforeBytes", "Heap before", r -> bytes(r.gc().heapSizeBefore())));
    f.add(flat(gcFields, "heapSizeAfterBytes", "Heap after", r -> bytes(r.gc().heapSizeAfter())));
    f.add(flat(gcFields, "promotedBytes", "Promoted", r -> bytes(r.gc().promoted())));
    f.add(
        Field.<Induced>of(
                "secondGcOnClose", "Second GC on close", 0, Unit.TEXT, Induced::secondGcOnClose)
            .cell(Induced::secondText)
            .only(Shown.FLAT));
    return new RecordSchema<>(null, f);
  }

  private static Field<Induced> flat(
      Map<String, Field<GcRecord>> gcFields,
      String key,
      String heading,
      Function<Induced, String> cell) {
    Field<Induced> f =
        gcFields.get(key).labelled(heading).<Induced>from(Induced::gc).only(Shown.FLAT);
    return cell == null ? f : f.cell(cell);
  }

  private Report report(Induced report) {
    GcRecord gc = report.gc();
    if (!report.clientSequenceNumberMatched() && gc.clientSequenceNumber() != 0) {
      warn(
          "the GC's ClientSequenceNumber is "
              + gc.clientSequenceNumber()
              + ", not the "
              + report.requested()
              + " asked for: another tool may have induced it");
    }
    return Report.record(REPORT, report);
  }

  private static String bytes(Long v) {
    return v == null ? "-" : Unit.COUNT.text(v) + " (" + Unit.bytes(v) + ")";
  }

  /**
   * Finds the induced GC among those the session sees: the one whose ClientSequenceNumber is the Id
   * asked for; on runtimes that report no number (Linux, and Windows before .NET 9), the first
   * induced blocking gen2 GC.
   */
  private static final class Matcher {
    private final long id;
    private final List<GcRecord> seen = new ArrayList<>();

    Matcher(long id) {
      this.id = id;
    }

    /** Takes a GC; true if it is the one looked for. */
    synchronized boolean offer(GcRecord r) {
      seen.add(r);
      return matches(r);
    }

    private boolean matches(GcRecord r) {
      return r.clientSequenceNumber() == id
          || (r.clientSequenceNumber() == 0
              && r.isInduced()
              && r.generation() == 2
              && "NonConcurrent".equals(r.type()));
    }

    synchronized GcRecord match() {
      for (GcRecord r : seen) {
        if (r.clientSequenceNumber() == id) {
          return r;
        }
      }
      for (GcRecord r : seen) {
        if (matches(r)) {
          return r;
        }
      }
      return null;
    }
  }
}
