package dev.clrscope.cli.commands.contention;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.FrameFields;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.cli.render.Watched;
import dev.clrscope.monitor.contention.BlockedRecord;
import dev.clrscope.monitor.contention.BlockedSummary;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints blocked-thread records as they come and the summary at the end, as {@code gcstats} does: a
 * table (with {@code --stacks}, each row's frames under it), JSON Lines ({@code "kind":"lock"} or
 * {@code "kind":"wait"}, then {@code "kind":"summary"}), or CSV (the summary then goes to stderr).
 */
final class ContentionOutput {
  /** The fields of a record; the stack only with {@code --stacks}. */
  static RecordSchema<BlockedRecord> schema(boolean stacks) {
    return schema(stacks, false);
  }

  /**
   * The fields of a record, or of a wait still in progress when the watch ended: since when it
   * waits, and its time so far rather than its duration.
   */
  private static RecordSchema<BlockedRecord> schema(boolean stacks, boolean inProgress) {
    List<Field<BlockedRecord>> f = new ArrayList<>();
    f.add(Field.of("time", inProgress ? "SINCE" : "TIME", 12, Unit.TIME, BlockedRecord::time));
    f.add(Field.of("kind", "KIND", 4, Unit.TEXT, BlockedRecord::kind));
    f.add(Field.of("threadId", "THREAD", 7, Unit.ID, BlockedRecord::threadId));
    f.add(
        inProgress
            ? Field.of("soFarMs", "SO_FAR_MS", 11, Unit.MILLIS, BlockedRecord::durationMillis)
            : Field.of(
                "durationMs", "DURATION_MS", 11, Unit.MILLIS, BlockedRecord::durationMillis));
    f.add(Field.of("ownerThreadId", "OWNER", 7, Unit.ID, BlockedRecord::ownerThreadId));
    f.add(Field.of("source", "SOURCE", 11, Unit.TEXT, BlockedRecord::source));
    f.add(Field.<BlockedRecord>data("lockId", Unit.ADDRESS, BlockedRecord::lockId));
    f.add(Field.<BlockedRecord>data("objectId", Unit.ADDRESS, BlockedRecord::objectId));
    if (stacks) {
      f.addAll(FrameFields.stackFields("stack", BlockedRecord::stack));
    }
    f.addAll(FrameFields.frameFields("method", "METHOD", 0, BlockedRecord::method));
    // No "kind" member of the schema's own: the record's kind (lock, wait) is one of its fields.
    return new RecordSchema<>(null, f).withKey("method");
  }

  /** The records as they come: with {@code stacks}, each one's frames under it in a table. */
  static Renderer.Stream<BlockedRecord> stream(boolean stacks) {
    Renderer.Stream<BlockedRecord> stream = Renderer.Stream.live(schema(stacks));
    return stacks ? stream.withDetails(r -> FrameFields.atFrames(r.stack())) : stream;
  }

  private static final RecordSchema<Watched> SUMMARY =
      new RecordSchema<>("summary", Watched.fields(w -> w));

  private static List<Field<BlockedSummary.Group>> groupFields(boolean byMethod) {
    List<Field<BlockedSummary.Group>> f = new ArrayList<>();
    f.add(Field.of("kind", "KIND", 0, Unit.TEXT, BlockedSummary.Group::kind));
    if (byMethod) {
      f.add(
          Field.<BlockedSummary.Group>data(
                  "method", Unit.TEXT, g -> g.method() == null ? null : g.method().name())
              .optional());
      f.addAll(FrameFields.lineFields(g -> g.method() == null ? null : g.method().line(), null));
      f.addAll(FrameFields.stackFields("stack", BlockedSummary.Group::stack));
    }
    f.add(Field.of("count", "COUNT", 0, Unit.COUNT, BlockedSummary.Group::count));
    f.add(Field.of("totalMs", "TOTAL_MS", 0, Unit.MILLIS, BlockedSummary.Group::totalMillis));
    f.add(Field.of("p50Ms", "P50_MS", 0, Unit.MILLIS, BlockedSummary.Group::p50Millis));
    f.add(Field.of("p95Ms", "P95_MS", 0, Unit.MILLIS, BlockedSummary.Group::p95Millis));
    f.add(Field.of("maxMs", "MAX_MS", 0, Unit.MILLIS, BlockedSummary.Group::maxMillis));
    if (byMethod) {
      f.add(
          Field.<BlockedSummary.Group>of("methodText", "METHOD", 0, Unit.TEXT, g -> null)
              .cell(g -> g.method() == null ? "-" : g.method().text())
              .only(Field.Shown.TABLE));
    }
    return f;
  }

  private static final RecordSchema<BlockedSummary.Group> BY_KIND =
      new RecordSchema<>(null, groupFields(false));

  private static final RecordSchema<BlockedSummary.Group> BY_STACK =
      new RecordSchema<BlockedSummary.Group>(null, groupFields(true))
          .withPriority(List.of("kind", "count", "totalMs", "methodText", "maxMs"))
          .withKey("methodText");

  /** The summary, its first line how long it watched and why it stopped ({@code null}: a file). */
  static Report summaryReport(BlockedSummary s, String stoppedBecause) {
    Watched watched = new Watched(s.observedNanos(), stoppedBecause);
    Report.Builder r = Report.builder().values(SUMMARY, watched);
    if (s.byKind().isEmpty()) {
      r.note(s.inProgress().isEmpty() ? "No thread was blocked." : "No wait ended.");
    }
    boolean inProgressStacks = s.inProgress().stream().anyMatch(b -> !b.stack().isEmpty());
    r.rows(
        "inProgress",
        s.inProgress().isEmpty()
            ? null
            : "Still waiting when the watch ended (time so far; waits begun before it are not seen)",
        schema(inProgressStacks, true),
        s.inProgress(),
        b -> FrameFields.atFrames(b.stack()));
    boolean stacks = s.byStack().stream().anyMatch(g -> !g.stack().isEmpty());
    return r.rows("byKind", null, BY_KIND, s.byKind())
        .rows(
            "byStack",
            "By waiting " + (stacks ? "stack" : "method") + ", most blocked time first",
            BY_STACK,
            s.byStack(),
            g -> FrameFields.atFrames(g.stack()))
        .build();
  }
}
