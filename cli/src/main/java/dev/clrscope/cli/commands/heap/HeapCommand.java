package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.options.BufferSizeOption;
import dev.clrscope.cli.options.DurationOption;
import dev.clrscope.cli.options.TypeRegex;
import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.cli.render.ProgressLine;
import dev.clrscope.heapwalk.GcDumpWriter;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.HeapSnapshotBuilder;
import dev.clrscope.ipc.RuntimeTooOldException;
import dev.clrscope.ipc.session.EventLevel;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.monitor.RuntimeKeyword;
import dev.clrscope.monitor.session.SessionRequest;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.session.StopSwitch;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import picocli.CommandLine.Mixin;

/**
 * What every heap command shares: taking a snapshot of the managed heap from outside the process,
 * as dotnet-gcdump takes it (the runtime walks the heap during one GC it is asked to force).
 */
abstract class HeapCommand extends AttachingCommand {
  /**
   * The keywords dotnet-gcdump asks for: GC (the GC's start and end), Type and GCHeapAndTypeNames
   * (type names), GCHeapDump (the walk's objects, references and roots), GCHeapCollect (force the
   * GC that walks).
   */
  static final long HEAP_SNAPSHOT_KEYWORDS =
      RuntimeKeyword.maskOf(
          RuntimeKeyword.GC,
          RuntimeKeyword.TYPE,
          RuntimeKeyword.GC_HEAP_DUMP,
          RuntimeKeyword.MANAGED_HEAP_COLLECT,
          RuntimeKeyword.GC_HEAP_AND_TYPE_NAMES);

  private static final Duration DEFAULT_WAIT = Duration.ofSeconds(60);

  private static final Duration POLL = Duration.ofMillis(200);

  /** How long the stream may be silent, once events came, before the rest is asked for. */
  private static final Duration QUIET = Duration.ofSeconds(2);

  /** How long to wait for the first event before asking for what the runtime holds. */
  private static final Duration FIRST = Duration.ofSeconds(5);

  @Mixin DurationOption durationOption;

  @Mixin BufferSizeOption bufferSize;

  /** dotnet-gcdump's buffer: a walk of millions of objects comes faster than it can be read. */
  static final int DEFAULT_BUFFER_MB = 1024;

  @Override
  protected void validate() {
    bufferSize.megabytesOr(DEFAULT_BUFFER_MB);
  }

  /** {@code --type}'s regular expression, or a usage error that says what is wrong with it. */
  protected Pattern typePattern(String regex) {
    return TypeRegex.compile(spec, regex);
  }

  /**
   * How long the snapshot may take: {@code --duration}, else {@code -t/--timeout} when given (its
   * meaning in dotnet-gcdump), else a minute.
   */
  Duration walkLimit() {
    if (durationOption.duration() != null) {
      return durationOption.duration();
    }
    Duration timeout = target.timeoutGiven();
    return timeout != null ? timeout : DEFAULT_WAIT;
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

  /** Writes {@code snapshot} to {@code file} as a .gcdump, whole or not at all. */
  protected static void write(HeapSnapshot snapshot, AttachedTarget attached, Path file) {
    GcDumpWriter.About about =
        new GcDumpWriter.About(
            attached.pid() > 0
                ? ProcessHandle.of(attached.pid())
                    .flatMap(h -> h.info().command())
                    .map(c -> Path.of(c).getFileName().toString())
                    .orElse(null)
                : null,
            Math.max(attached.pid(), 0),
            // .NET ticks: 100 ns since 0001-01-01, 621,355,968,000,000,000 of them to 1970.
            621_355_968_000_000_000L + System.currentTimeMillis() * 10_000L,
            true);
    OutputFile.write(
        file,
        out -> {
          GcDumpWriter.write(snapshot, about, out);
          return null;
        });
  }

  /** What the retry asks for: four times the buffer that lost events, and at least this. */
  private static final int RETRY_BUFFER_MB = 1024;

  /**
   * Takes the snapshot; its problems are said on stderr. The runtime walks the heap faster than any
   * reader takes the events in, so a big heap can overflow the session's buffer: then the heap is
   * walked once more, with a buffer four times the size.
   */
  protected HeapSnapshot snapshot(AttachedTarget attached) {
    int buffer = bufferSize.megabytesOr(DEFAULT_BUFFER_MB);
    HeapSnapshotBuilder builder = new HeapSnapshotBuilder();
    SessionResult result = walk(attached, builder, buffer);
    if ((result.droppedEvents() > 0 || builder.eventsLost()) && !result.endedByItself()) {
      int bigger = (int) Math.min(Integer.MAX_VALUE, Math.max(4L * buffer, RETRY_BUFFER_MB));
      err()
          .println(
              String.format(
                  java.util.Locale.ROOT,
                  "The runtime dropped events with a %d MB buffer (it walked the heap faster than"
                      + " the events were read): walking it again with %d MB ...",
                  buffer,
                  bigger));
      builder = new HeapSnapshotBuilder();
      result = walk(attached, builder, bigger);
      buffer = bigger;
    }
    warnAboutStream(
        result,
        "the snapshot is incomplete; raise --buffersize above "
            + buffer
            + " MB (the target holds up to that much memory while the walk's events wait)");
    SessionResult ended = result;
    Duration wait = walkLimit();
    HeapSnapshot snapshot =
        builder
            .build()
            .orElseThrow(
                () ->
                    new CommandFailure(
                        ended.endedByItself()
                            ? attached.describe()
                                + " ended the session before its runtime walked the heap; dump-heap"
                                + " needs a process that keeps running"
                            : "the runtime did not walk its heap within "
                                + wait.toSeconds()
                                + " s of being asked: the target may be too busy or too old"
                                + " (.NET 5+ is needed); try a longer --duration"));
    if (!builder.isComplete()) {
      // A walk cut off is not a smaller heap: its missing objects would read as freed.
      throw new CommandFailure(
          (ended.endedByItself()
                  ? attached.describe() + " ended during the heap walk"
                  : "the runtime did not finish walking its heap within "
                      + wait.toSeconds()
                      + " s (try a longer --duration)")
              + ": the snapshot is incomplete, nothing was written or reported");
    }
    snapshot.problems().forEach(this::warn);
    long resident = residentBytes(attached.pid());
    if (resident > 0) {
      err()
          .println(
              String.format(
                  java.util.Locale.ROOT,
                  "The process holds %,d bytes resident (VmRSS): the GC heap is part of it, beside"
                      + " code, native allocations and thread stacks.",
                  resident));
    }
    return snapshot;
  }

  /** One walk: a session that forces a GC and feeds its heap events to {@code builder}. */
  private SessionResult walk(AttachedTarget attached, HeapSnapshotBuilder builder, int bufferMb) {
    StopSwitch stop = new StopSwitch();
    Duration wait = walkLimit();
    err()
        .println(
            "Walking the managed heap of " + attached.describe() + " (one forced full GC) ...");
    try {
      return walk(attached, builder, config(bufferMb, moduleRundown), stop, wait);
    } catch (RuntimeTooOldException e) {
      if (!moduleRundown) {
        throw e;
      }
      // Before .NET 8 the rundown's keywords cannot be chosen: the walk goes without module names.
      moduleRundown = false;
      err().println("(This runtime cannot send module names alone, before .NET 8: left out.)");
      return walk(attached, builder, config(bufferMb, false), new StopSwitch(), wait);
    }
  }

  /** Whether the session asks for the modules' rundown; off once the runtime refused it. */
  private boolean moduleRundown = true;

  /**
   * The heap session: the runtime provider with the snapshot keywords at Informational (what the
   * runtime checks for heap-walk events); no stacks (the walk does not need them, and the GC thread
   * would be walked for every event); at the end, the rundown of the modules alone (Loader), whose
   * files the .gcdump names for each type.
   */
  private static EventPipeSessionConfig config(int bufferMb, boolean moduleRundown) {
    return new EventPipeSessionConfig(
        bufferMb,
        List.of(
            new EventPipeProvider(
                RuntimeEvents.RUNTIME_PROVIDER,
                HEAP_SNAPSHOT_KEYWORDS,
                EventLevel.INFORMATIONAL.value())),
        moduleRundown ? RuntimeKeyword.LOADER.mask() : 0,
        false,
        false);
  }

  private SessionResult walk(
      AttachedTarget attached,
      HeapSnapshotBuilder builder,
      EventPipeSessionConfig config,
      StopSwitch stop,
      Duration wait) {
    SessionResult result =
        watch(
            attached,
            SessionRequest.of(config, "clrscope-heap-reader").withDuration(wait),
            stop,
            false,
            session -> {
              // The runtime hands a thread's events over when its buffer fills or the session
              // stops, so the walk's last events (its GCEnd) can wait in the GC thread's buffer:
              // once events stop coming, stopping the session delivers the rest.
              // A small heap's events may all wait there: silence from the start counts too, a
              // little longer.
              long seen = 0;
              long quietSince = System.nanoTime();
              try (ProgressLine progress =
                  new ProgressLine(
                      err(),
                      ProgressLine.stderrIsTerminal(),
                      () ->
                          String.format(
                              java.util.Locale.ROOT,
                              "Walking: %,d objects, %,d references, %s received",
                              builder.objectsSoFar(),
                              builder.referencesSoFar(),
                              ProgressLine.bytes(session.bytesRead())))) {
                while (!stop.awaitStop(POLL)) {
                  long n = session.eventsRead();
                  if (n != seen) {
                    seen = n;
                    quietSince = System.nanoTime();
                  } else if (System.nanoTime() - quietSince > (n > 0 ? QUIET : FIRST).toNanos()) {
                    stop.request("no new heap events for a while");
                  }
                }
              }
              return session.finish();
            },
            event -> {
              builder.accept(event);
              if (builder.isComplete()) {
                stop.request("the heap walk is complete");
              }
            });
    return result;
  }
}
