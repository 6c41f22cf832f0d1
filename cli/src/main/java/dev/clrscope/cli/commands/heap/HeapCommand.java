package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.commands.DacCommand;
import dev.clrscope.cli.dacprocess.DacHost;
import dev.clrscope.cli.options.BufferSizeOption;
import dev.clrscope.cli.options.DacSourceOptions;
import dev.clrscope.cli.options.DurationParser;
import dev.clrscope.cli.options.OptionDefaults;
import dev.clrscope.cli.options.TypeRegex;
import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.cli.render.ProgressLine;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.DacSession;
import dev.clrscope.dac.TargetException;
import dev.clrscope.heapwalk.GcDumpWriter;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.HeapSnapshotBuilder;
import dev.clrscope.ipc.transport.UnixSocketPreload;
import dev.clrscope.monitor.heap.HeapTimeline;
import dev.clrscope.monitor.heap.HeapWalk;
import dev.clrscope.monitor.session.SessionRunner;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What every heap command shares: taking a snapshot of the managed heap from outside the process,
 * as dotnet-gcdump takes it (the runtime walks the heap during one GC it is asked to force).
 */
abstract class HeapCommand extends AttachingCommand implements OptionDefaults.Own, DacCommand {
  @Option(
      names = "--duration",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      defaultValue = "60s",
      description =
          "How long the whole snapshot may take: the forced GC, the walk and reading its events"
              + " (default: ${DEFAULT-VALUE}; without --duration, -t SECONDS sets it when given,"
              + " as dotnet-gcdump's --timeout). 30s, 2m, 500ms, or hh:mm:ss.")
  Duration walkLimit;

  @Mixin BufferSizeOption bufferSize;

  @Mixin DacSourceOptions dacSource;

  @Option(
      names = "--exact",
      description =
          "Read a live process's heap through the runtime's DAC while the process is paused"
              + " (ptrace), instead of the runtime's own walk during a forced GC: no GC is forced,"
              + " garbage not yet collected is reported apart, and the pause is said on stderr.")
  boolean exact;

  /** dotnet-gcdump's buffer: a walk of millions of objects comes faster than it can be read. */
  @Override
  public String defaultFor(String option) {
    return option.equals("--buffersize") ? Integer.toString(HeapWalk.DEFAULT_BUFFER_MB) : null;
  }

  @Override
  protected void validate() {
    HeapTimeline.mark("options parsed");
    bufferSize.megabytes();
    // A --symbol-server that cannot be used is a usage error whatever the target.
    dacOptions();
    if (exact && !target.isChosen()) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(),
          "--exact reads a live process (-p PID, -n NAME); a core or .gcdump FILE is read as it"
              + " is");
    }
    if (exact && !target.command().isEmpty()) {
      // A launched app waits at startup, with no heap to read yet; and it would share the DAC
      // process's stdin, which carries the front's requests.
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(),
          "--exact reads a running process: start the app, then give -p PID or -n NAME");
    }
    if (target.isChosen()) {
      // Before the target is found: the sockets' first use (13-17 ms) on a second core meanwhile.
      UnixSocketPreload.start();
    }
  }

  @Override
  protected boolean readsFiles() {
    return true;
  }

  /** A core dump is read through the DAC, and so is a live process with {@code --exact}. */
  @Override
  public boolean readsThroughDac() {
    if (exact) {
      return true;
    }
    for (Path file : heapFiles()) {
      if (DacCommand.isCore(file)) {
        return true;
      }
    }
    return false;
  }

  /** The heap files the command was given: FILE, and any its own options name. */
  protected java.util.List<Path> heapFiles() {
    java.util.List<Path> files = new java.util.ArrayList<>();
    for (String w : target.inputs()) {
      files.add(Path.of(w));
    }
    return files;
  }

  /** A heap file given instead of a target: {@link #show} what it holds. */
  @Override
  protected Result readFile(Path file) {
    HeapSnapshot s = HeapFile.read(file, dacOptions());
    return HeapFile.requireWhole(s, err(), show(s, file.getFileName() + " holds"));
  }

  /**
   * How the DAC is found for a core or {@code --exact}: {@code --dac}, {@code --symbol-server} and
   * the download options, as {@code analyze} takes them; what is passed over is said on stderr.
   */
  protected DacOptions dacOptions() {
    return dacSource.dacOptions(this::warn);
  }

  /** A snapshot of the live target: {@link #show} what it holds. */
  @Override
  protected Result run(AttachedTarget attached) {
    HeapSnapshot s = snapshot(attached);
    written(s, attached);
    return HeapFile.requireWhole(s, err(), show(s, source(s, attached)));
  }

  /** Where a live snapshot came from, as its first line says: {@code GC 12 walked}. */
  protected static String source(HeapSnapshot s, AttachedTarget attached) {
    return s.gcNumber() >= 0 ? "GC " + s.gcNumber() + " walked" : attached.describe() + " holds";
  }

  /** Writes a live snapshot where the command was asked to, before it is shown. */
  protected void written(HeapSnapshot snapshot, AttachedTarget attached) {}

  /**
   * Shows what a snapshot holds.
   *
   * @param source where it came from, as a summary line starts ({@code GC 4 walked}, {@code
   *     file.gcdump holds})
   */
  protected abstract Result show(HeapSnapshot snapshot, String source);

  /** {@code --type}'s regular expression, or a usage error that says what is wrong with it. */
  protected TypeRegex typePattern(String regex) {
    return TypeRegex.compile(spec, regex);
  }

  /**
   * How long the snapshot may take: {@code --duration}, else {@code -t/--timeout} when given (its
   * meaning in dotnet-gcdump), else {@code --duration}'s default.
   */
  Duration walkLimit() {
    Duration timeout = target.timeoutGiven();
    return timeout != null && !spec.commandLine().getParseResult().hasMatchedOption("--duration")
        ? timeout
        : walkLimit;
  }

  /** The line that says the process's resident memory, or "" when it cannot be read. */
  private static String residentLine(long pid) {
    long resident = residentBytes(pid);
    return resident <= 0
        ? ""
        : "The process holds "
            + Unit.bytes(resident)
            + " resident (VmRSS): the GC heap is part of it, beside code, native allocations and"
            + " thread stacks.";
  }

  /** The process's resident memory from {@code /proc/PID/status}, or 0 when it cannot be read. */
  static long residentBytes(long pid) {
    if (pid <= 0) {
      return 0;
    }
    try {
      for (String line :
          java.nio.file.Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          String[] w = line.substring(6).trim().split("\\s+");
          return Long.parseLong(w[0]) * 1024;
        }
      }
    } catch (java.io.IOException | RuntimeException e) {
      // Another user's process, or gone: the figure is left out.
    }
    return 0;
  }

  /**
   * The exact graph of the paused process: every object, reference and root through the DAC, the
   * process stopped from the attach to the end of the read, and that pause said on stderr.
   */
  private HeapSnapshot exactSnapshot(AttachedTarget attached) {
    long pid = attached.pid();
    if (pid <= 0 || pid > Integer.MAX_VALUE) {
      throw new CommandFailure(
          "--exact reads a process on this machine by its pid; "
              + attached.describe()
              + " has none: leave --exact out");
    }
    HeapSnapshot snapshot;
    java.time.Duration paused;
    DacHost.reading((int) pid, "process " + pid);
    try (DacSession process = DacSession.attach((int) pid, dacOptions())) {
      snapshot = process.heap().snapshot();
      process.close();
      paused = process.paused();
    } catch (TargetException e) {
      throw new CommandFailure(e.getMessage(), e);
    }
    err()
        .println(
            "Process "
                + pid
                + " was paused for "
                + Unit.duration(paused)
                + " while its heap was read through the DAC.");
    return snapshot;
  }

  /** The .gcdump begun while the session ended, when the command writes one. */
  private GcDumpWriter.Prepared prepared;

  /** Whether the command writes the snapshot to a file: then it is begun while the session ends. */
  protected boolean writesFile() {
    return false;
  }

  /** Writes {@code snapshot} to {@code file} as a .gcdump, whole or not at all. */
  protected void write(HeapSnapshot snapshot, AttachedTarget attached, Path file) {
    OutputFile.write(
        file,
        out -> {
          HeapWalk.write(snapshot, prepared, attached.pid(), out);
          return null;
        });
    prepared = null;
    HeapTimeline.mark("file written");
  }

  /**
   * Takes the snapshot ({@link HeapWalk}: a retry with a bigger buffer when the runtime dropped
   * events); its problems are said on stderr.
   */
  protected HeapSnapshot snapshot(AttachedTarget attached) {
    HeapTimeline.mark("target attached");
    if (exact) {
      return exactSnapshot(attached);
    }
    HeapWalk walk =
        new HeapWalk(
            (request, stop, body, consumer) ->
                watch(attached, request, stop, false, body::run, consumer),
            new HeapWalk.Listener() {
              @Override
              public void note(String line) {
                err().println(line);
              }

              @Override
              public AutoCloseable progress(HeapSnapshotBuilder builder, SessionRunner session) {
                return new ProgressLine(
                    err(),
                    ProgressLine.stderrIsTerminal(),
                    () ->
                        "Walking: "
                            + Unit.count(builder.objectsSoFar())
                            + " objects, "
                            + Unit.count(builder.referencesSoFar())
                            + " references, "
                            + Unit.bytes(session.bytesRead())
                            + " received");
              }

              @Override
              public void warn(String line) {
                HeapCommand.this.warn(line);
              }
            },
            attached.pid(),
            attached.describe(),
            bufferSize.megabytes(),
            walkLimit());
    HeapSnapshot snapshot;
    // What can be done while the session ends (the runtime takes about 0.1 s to stop it and send
    // the modules' names): the process's memory read, the file begun.
    String[] resident = {null};
    try {
      snapshot =
          walk.take(
              (graph, ending) -> {
                resident[0] = residentLine(attached.pid());
                if (writesFile()) {
                  prepared = HeapWalk.prepare(graph, ending);
                }
              });
    } catch (HeapWalk.WalkFailure e) {
      throw new CommandFailure(e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommandFailure("interrupted", e);
    }
    String line = resident[0] != null ? resident[0] : residentLine(attached.pid());
    if (!line.isEmpty()) {
      err().println(line);
    }
    return snapshot;
  }
}
