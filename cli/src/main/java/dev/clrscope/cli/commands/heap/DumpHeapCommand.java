package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.options.BufferSizeOption;
import dev.clrscope.cli.options.DurationOption;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.RecordStream;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.HeapSnapshotBuilder;
import dev.clrscope.heapwalk.TypeStatistics;
import dev.clrscope.ipc.session.EventLevel;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.monitor.RuntimeKeyword;
import dev.clrscope.monitor.session.SessionRequest;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.session.StopSwitch;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code clrscope dump-heap}: a snapshot of the managed heap from outside the process, as
 * dotnet-gcdump takes it (the runtime walks the heap during one GC it is asked to force), reported
 * per type: how many objects and their total size.
 */
@Command(
    name = "dump-heap",
    mixinStandardHelpOptions = true,
    description = {
      "Walk the managed heap of a .NET process (the runtime forces one full, blocking GC to do it)"
          + " and print, per type, how many objects it holds and their total size."
    })
public final class DumpHeapCommand extends AttachingCommand {
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

  @Mixin FormatOption format;

  @Mixin DurationOption durationOption;

  @Option(
      names = "--top",
      paramLabel = "N",
      defaultValue = "30",
      description = "Show the N biggest types (default: ${DEFAULT-VALUE}; 0 for all).")
  int top = 30;

  @Option(
      names = "--type",
      paramLabel = "REGEX",
      description = "Only types whose name contains a match of REGEX.")
  String typeFilter;

  @Option(
      names = "--min-count",
      paramLabel = "N",
      defaultValue = "0",
      description = "Only types with at least N objects.")
  long minCount;

  @Option(
      names = "--sort",
      paramLabel = "retained|size|count",
      defaultValue = "retained",
      description = "Biggest first by retained size (default), total size or count.")
  String sort = "retained";

  @Mixin BufferSizeOption bufferSize;

  private Pattern typePattern;

  /** One row of the report. */
  static final RecordSchema<TypeStatistics> SCHEMA =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("count", "COUNT", 12, Unit.COUNT, TypeStatistics::count),
              Field.of("totalSize", "TOTAL SIZE", 14, Unit.COUNT, TypeStatistics::totalSize),
              Field.of("retainedSize", "RETAINED", 14, Unit.COUNT, TypeStatistics::retainedSize),
              Field.of("type", "TYPE", 4, Unit.TEXT, TypeStatistics::type)));

  @Override
  protected void validate() {
    if (top < 0 || minCount < 0) {
      throw new ParameterException(spec.commandLine(), "--top and --min-count take 0 or more");
    }
    bufferSize.megabytes();
    if (!List.of("retained", "size", "count").contains(sort.toLowerCase(Locale.ROOT))) {
      throw new ParameterException(
          spec.commandLine(), "--sort takes retained, size or count, got " + sort);
    }
    if (typeFilter != null) {
      try {
        typePattern = Pattern.compile(typeFilter);
      } catch (PatternSyntaxException e) {
        throw new ParameterException(
            spec.commandLine(), "--type is not a regular expression: " + e.getDescription());
      }
    }
  }

  @Override
  protected int run(AttachedTarget attached) {
    HeapSnapshotBuilder builder = new HeapSnapshotBuilder();
    StopSwitch stop = new StopSwitch();
    Duration wait = durationOption.duration() != null ? durationOption.duration() : DEFAULT_WAIT;
    // Informational is what the runtime checks for heap-walk events; no stacks (the walk does not
    // need them, and the GC thread would be walked for every event); no rundown (module names are
    // not reported yet).
    EventPipeSessionConfig config =
        new EventPipeSessionConfig(
            bufferSize.megabytes(),
            List.of(
                new EventPipeProvider(
                    RuntimeEvents.RUNTIME_PROVIDER,
                    HEAP_SNAPSHOT_KEYWORDS,
                    EventLevel.INFORMATIONAL.value())),
            0,
            false,
            false);
    err()
        .println(
            "Walking the managed heap of " + attached.describe() + " (one forced full GC) ...");
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
              while (!stop.awaitStop(POLL)) {
                long n = session.eventsRead();
                if (n != seen) {
                  seen = n;
                  quietSince = System.nanoTime();
                } else if (System.nanoTime() - quietSince > (n > 0 ? QUIET : FIRST).toNanos()) {
                  stop.request("no new heap events for a while");
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
    warnAboutStream(result, "the snapshot is incomplete (raise --buffersize)");
    HeapSnapshot snapshot =
        builder
            .build()
            .orElseThrow(
                () ->
                    new CommandFailure(
                        result.endedByItself()
                            ? attached.describe()
                                + " ended the session before its runtime walked the heap; dump-heap"
                                + " needs a process that keeps running"
                            : "the runtime did not walk its heap within "
                                + wait.toSeconds()
                                + " s of being asked: the target may be too busy or too old"
                                + " (.NET 5+ is needed); try a longer --duration"));
    snapshot.problems().forEach(this::warn);
    report(snapshot);
    return 0;
  }

  private void report(HeapSnapshot snapshot) {
    List<TypeStatistics> rows = snapshot.typeStatistics();
    List<TypeStatistics> shown =
        rows.stream()
            .filter(r -> r.count() >= minCount)
            .filter(r -> typePattern == null || typePattern.matcher(r.type()).find())
            .sorted(
                Comparator.comparingLong(
                        switch (sort.toLowerCase(Locale.ROOT)) {
                          case "count" -> TypeStatistics::count;
                          case "size" -> TypeStatistics::totalSize;
                          default -> TypeStatistics::retainedSize;
                        })
                    .reversed()
                    .thenComparing(TypeStatistics::type))
            .limit(top == 0 ? Long.MAX_VALUE : top)
            .toList();
    err()
        .println(
            String.format(
                Locale.ROOT,
                "GC %d walked %,d objects of %,d types, %,d bytes, %,d references, %,d roots%s%s",
                snapshot.gcNumber(),
                snapshot.objectCount(),
                rows.size(),
                snapshot.totalSize(),
                snapshot.referenceCount(),
                snapshot.rootCount(),
                snapshot.unreachableCount() > 0
                    ? String.format(
                        Locale.ROOT,
                        "; %,d objects not reachable from those roots (their sizes are retained"
                            + " by none)",
                        snapshot.unreachableCount())
                    : "",
                shown.size() < rows.size() ? "; showing " + shown.size() + " types" : ""));
    RecordStream<TypeStatistics> out =
        new RecordStream<>(
            out(),
            SCHEMA,
            switch (format.format()) {
              case json -> RecordStream.Form.JSON_DOCUMENT;
              case csv -> RecordStream.Form.CSV;
              default -> RecordStream.Form.TABLE;
            },
            false);
    java.util.Map<String, Object> head = new java.util.LinkedHashMap<>();
    head.put("gc", snapshot.gcNumber());
    head.put("objects", snapshot.objectCount());
    head.put("totalSize", snapshot.totalSize());
    head.put("problems", snapshot.problems());
    out.start(head, "types");
    shown.forEach(out::write);
    out.finish(java.util.Map.of());
  }
}
