package dev.clrscope.cli.commands.triage;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.ExitCode;
import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.attach.TargetResolver;
import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.commands.DacCommand;
import dev.clrscope.cli.commands.analyze.AnalyzeCommand;
import dev.clrscope.cli.commands.heap.HeapFile;
import dev.clrscope.cli.dacprocess.DacHost;
import dev.clrscope.cli.options.DacSourceOptions;
import dev.clrscope.cli.options.DurationParser;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.options.LineOptions;
import dev.clrscope.cli.options.PausedProcessOptions;
import dev.clrscope.cli.options.TargetSpec;
import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.TargetException;
import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.discovery.EndpointLocator;
import dev.clrscope.monitor.counters.CounterFeed;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.session.SessionRunner;
import dev.clrscope.monitor.session.StopSwitch;
import dev.clrscope.symbols.SourceLines;
import dev.clrscope.triage.DacTriage;
import dev.clrscope.triage.LiveSample;
import dev.clrscope.triage.LiveWatch;
import dev.clrscope.triage.Severity;
import dev.clrscope.triage.Triage;
import dev.clrscope.triage.TriageSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code clrscope triage CORE | -p PID | -n NAME}: what is wrong with a process or a core, most
 * severe first, each finding with its evidence and the command to run next. A live process is
 * watched for a few seconds (its counters, through the session runner), then paused only while it
 * is read, as {@code analyze -p} pauses it. Two cores, or a core and a live process, also say what
 * grew between them.
 */
@Command(
    name = TriageCommand.NAME,
    mixinStandardHelpOptions = true,
    description = {
      "Say what is wrong with a .NET process or a core dump, most severe first: deadlocks (Monitor"
          + " and System.Threading.Lock), threads blocked on tasks (sync over async), a starved"
          + " thread pool, a blocked finalizer, a crash and the exceptions threads threw, leak"
          + " suspects (objects and types retaining 10%% of the heap or more, as Eclipse MAT finds"
          + " them), duplicated strings, empty collections, free space in the large object heap,"
          + " piled-up timers, long invocation lists; live, also time in GC, exceptions per second"
          + " and the thread pool's queue. Each finding comes with its evidence (threads, frames"
          + " with lines, objects) and the next command to run. Nothing found says what was"
          + " checked."
    },
    footer = {
      "",
      "Examples:",
      "  clrscope triage app.core",
      "  clrscope triage -p 1234 --html report.html",
      "  clrscope triage before.core after.core        # what grew, and the findings of after",
      "  clrscope triage -n MyService --fail-on error  # exit 3 when something is that bad",
      "",
      "Exit codes: 0, or 3 when a finding at or above --fail-on was made; 1 when the target"
          + " cannot be read, 2 for a usage error."
    })
public final class TriageCommand extends ClrscopeSubcommand implements DacCommand {
  static final String NAME = "triage";

  /** The stop reason of a watch the user ended early, as the report says it. */
  private static final String CTRL_C = "Ctrl+C";

  @Override
  public boolean readsThroughDac() {
    return true;
  }

  @Override
  public boolean mayReadThroughDac(List<String> words) {
    return !words.isEmpty() && words.get(0).equals(NAME);
  }

  @Parameters(
      arity = "0..2",
      paramLabel = "CORE",
      description =
          "The core file; two (earlier, later) to also see what grew; one with -p or -n to compare"
              + " that core with the process now.")
  List<Path> cores = new ArrayList<>();

  @Mixin PausedProcessOptions live;

  @Option(
      names = "--duration",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      defaultValue = "3s",
      description =
          "How long to watch a live process's counters before reading it (time in GC, exceptions"
              + " per second, the thread pool's queue) (default: ${DEFAULT-VALUE}).")
  Duration duration;

  @Option(
      names = "--no-watch",
      description = "Read a live process at once, without watching its counters first.")
  boolean noWatch;

  @Option(
      names = "--fail-on",
      paramLabel = "SEVERITY",
      description =
          "Exit with 3 when a finding of this severity or worse was made: critical, error,"
              + " warning or info (default: always 0).")
  String failOn;

  @Option(
      names = "--html",
      paramLabel = "FILE",
      description =
          "Also write the report as one self-contained HTML file: the findings, their stacks"
              + " folded open on click, and a picture of the heap by retained size.")
  Path html;

  @Option(
      names = "--leak-share",
      paramLabel = "PERCENT",
      defaultValue = "10",
      description =
          "An object or a type retaining this share of the heap or more is a leak suspect"
              + " (default: ${DEFAULT-VALUE}).")
  double leakShare;

  @Option(
      names = "--no-heap",
      description =
          "Leave the heap out (leak suspects and waste): a live process is paused for less time.")
  boolean noHeap;

  @Mixin DacSourceOptions dacSource;

  @Mixin LineOptions lines;

  @Mixin FormatOption format;

  @Override
  protected Result run() {
    boolean isLive = live.given() > 0;
    if (live.given() > 1) {
      throw usage("give -p PID or -n NAME, not both");
    }
    if (cores.size() > 2) {
      throw usage("give at most two cores: the earlier and the later");
    }
    if (isLive ? cores.size() > 1 : cores.isEmpty()) {
      throw usage(
          isLive
              ? "give at most one core with -p or -n (the earlier heap to compare with)"
              : "give a core file, two to compare, or -p PID or -n NAME");
    }
    Severity threshold = failOn == null ? null : severity(failOn);
    if (!(leakShare > 0 && leakShare <= 100)) {
      throw usage("--leak-share must be a percentage above 0 and at most 100");
    }
    Path earlier =
        isLive ? (cores.isEmpty() ? null : cores.get(0)) : cores.size() == 2 ? cores.get(0) : null;
    if (earlier != null && noHeap) {
      throw usage("--no-heap leaves out the heap that a comparison compares");
    }
    if (html != null) {
      OutputFile.check(html, "--html");
    }
    DacOptions options = dacSource.dacOptions(this::warn);
    // PDBs are downloaded only from a server given here: the default one is the DAC's.
    SourceLines sourceLines = lines.sourceLines(dacSource.pdbServer());
    TriageSettings settings =
        TriageSettings.defaults().withLeakShare(leakShare / 100).withMemory(!noHeap);

    Path core = isLive ? null : cores.get(cores.size() - 1);
    int process = 0;
    LiveSample sample = null;
    if (isLive) {
      process = live.resolve(err());
      if (!noWatch) {
        sample = watch(process, duration);
      }
    }
    DacTriage.Outcome found =
        read(
            new DacTriage.Request(
                core,
                process,
                earlier,
                options,
                sourceLines,
                settings,
                sample,
                isLive ? "-p " + process : Triage.shellWord(core.toString())));
    if (isLive) {
      // Let go, and said how long it was paused, before the report is drawn.
      err()
          .println("Process " + process + " was paused for " + Unit.duration(found.paused()) + ".");
    }
    if (sourceLines != null) {
      sourceLines.problems().forEach(this::warn);
    }
    String runtime = AnalyzeCommand.describeRuntime(found.runtime());
    if (html != null) {
      TriageHtml.write(html, found.result(), runtime);
      err().println("Wrote " + html + ".");
    }
    Report report =
        TriageOutput.report(
            found.result(), runtime, found.heap() == null ? null : found.heap().walkProblems());
    if (threshold != null && found.result().hasAtLeast(threshold)) {
      report = report.exitingWith(ExitCode.FINDINGS);
    }
    return found.heap() == null ? report : HeapFile.requireWhole(found.heap(), err(), report);
  }

  /** Everything triage reads through the DAC, in one call. */
  private static DacTriage.Outcome read(DacTriage.Request request) {
    // Said before it is opened: the front then says a live process was let go when a Ctrl+C stops
    // the read or the DAC process dies under it, and names what was read.
    DacHost.reading(
        request.pid(),
        request.core() != null ? "core " + request.core() : "process " + request.pid());
    try {
      return DacTriage.run(request);
    } catch (TargetException e) {
      throw new CommandFailure(e.getMessage(), e);
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  private Severity severity(String text) {
    try {
      return Severity.parse(text);
    } catch (IllegalArgumentException e) {
      throw usage("--fail-on: " + e.getMessage());
    }
  }

  /**
   * Watches the live process's counters for {@code length} through the session runner, before the
   * process is paused. The user's first Ctrl+C ends the watch early and triage goes on with what it
   * saw (the front sends it here as a cancel: {@link DacHost#whileRunning}); a second one, or one
   * after the watch, stops triage as it stops any command, the process let go.
   */
  private LiveSample watch(int process, Duration length) {
    TargetSpec target = new TargetSpec.ByPid(process, Duration.ofSeconds(10));
    try (AttachedTarget attached =
        new TargetResolver(new EndpointLocator(), err()).attach(target)) {
      LiveWatch watch = LiveWatch.forRuntime(runtimeMajor(attached));
      StopSwitch stop = new StopSwitch();
      SessionResult result;
      try (SessionRunner session =
              SessionRunner.start(
                  attached.client(),
                  watch.plan().sessionRequest().withDuration(length),
                  stop,
                  new CounterFeed(watch.plan(), watch::accept));
          DacHost.Armed ctrlC = DacHost.whileRunning(() -> stop.request(CTRL_C))) {
        err()
            .println(
                "Watching process "
                    + process
                    + " for "
                    + Unit.duration(length)
                    + " (time in GC, exceptions, the thread pool), then reading it paused;"
                    + " Ctrl+C ends the watch early.");
        result = session.finish();
      }
      if (result.failure() != null) {
        warn("the counters' stream broke off: " + result.failure().getMessage());
      }
      double seconds = result.observedNanos() / 1e9;
      String cutShortBy = CTRL_C.equals(result.stopReason()) ? CTRL_C : null;
      if (cutShortBy != null) {
        err()
            .println(
                "The watch was cut short by Ctrl+C after "
                    + Unit.duration(result.observedNanos())
                    + "; reading process "
                    + process
                    + " paused (Ctrl+C again stops).");
      }
      return watch.sample(seconds, length.toNanos() / 1e9, cutShortBy);
    } catch (DiagnosticsException e) {
      warn("the live watch failed, triage goes on without it: " + e.getMessage());
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommandFailure("interrupted", e);
    }
  }

  private static int runtimeMajor(AttachedTarget attached) {
    try {
      String v = attached.client().processInfo().clrProductVersion();
      int dot = v == null ? -1 : v.indexOf('.');
      return v == null ? 0 : Integer.parseInt(dot > 0 ? v.substring(0, dot) : v);
    } catch (DiagnosticsException | NumberFormatException e) {
      return 0;
    }
  }
}
