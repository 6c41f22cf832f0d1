package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrThread;
import java.util.ArrayList;
import java.util.List;

/** {@code threads|clrthreads}: the threads the runtime knows. */
final class Threads extends SosCommand {
  Threads() {
    super(
        "threads",
        List.of("clrthreads"),
        "threads",
        "The runtime's threads: managed and OS ids, state, GC mode, locks held, kind (finalizer,"
            + " thread pool, background), the exception each is throwing",
        SosArgs.Spec.none());
  }

  /** The counts above the table. */
  record Counts(int threads, int unstarted, int background, int dead) {}

  private static final RecordSchema<Counts> COUNTS =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("threadCount", "ThreadCount:", 0, Unit.COUNT, Counts::threads),
              Field.of("unstartedThreads", "UnstartedThread:", 0, Unit.COUNT, Counts::unstarted),
              Field.of("backgroundThreads", "BackgroundThread:", 0, Unit.COUNT, Counts::background),
              Field.of("deadThreads", "DeadThread:", 0, Unit.COUNT, Counts::dead)));

  /** A thread and what else the table shows of it. */
  record Row(int index, ClrThread thread, String exceptionType, boolean current) {}

  private static final RecordSchema<Row> THREADS =
      new RecordSchema<Row>(
              null,
              List.of(
                  Field.of("index", "DBG", 0, Unit.ID, Row::index)
                      .cell(r -> (r.current() ? "*" : "") + r.index()),
                  Field.of("managedId", "ID", 0, Unit.ID, (Row r) -> r.thread().managedId()),
                  Field.of("osId", "OSID", 0, Unit.ID, (Row r) -> r.thread().osId()),
                  Field.of(
                      "threadObject",
                      "THREADOBJ",
                      0,
                      Unit.ADDRESS,
                      (Row r) -> r.thread().address()),
                  Field.of(
                      "state",
                      "STATE",
                      0,
                      Unit.TEXT,
                      (Row r) -> "0x" + Integer.toHexString(r.thread().state())),
                  Field.of("gcMode", "GC MODE", 0, Unit.TEXT, (Row r) -> r.thread().gcMode()),
                  Field.of(
                      "allocContext",
                      "GC ALLOC CONTEXT",
                      0,
                      Unit.TEXT,
                      (Row r) ->
                          "0x"
                              + Long.toHexString(r.thread().allocContextPtr())
                              + ":0x"
                              + Long.toHexString(r.thread().allocContextLimit())),
                  Field.of(
                      "lockCount", "LOCK COUNT", 0, Unit.COUNT, (Row r) -> r.thread().lockCount()),
                  Field.of("kinds", "KIND", 0, Unit.WORDS, (Row r) -> r.thread().kinds()),
                  Field.of(
                          "exception",
                          "EXCEPTION",
                          0,
                          Unit.TEXT,
                          (Row r) -> ValueText.hex(r.thread().currentException()))
                      .cell(
                          r ->
                              r.thread().currentException() == 0
                                  ? ""
                                  : r.exceptionType()
                                      + " 0x"
                                      + Long.toHexString(r.thread().currentException())),
                  Field.data("exceptionType", Unit.TEXT, Row::exceptionType)))
          .withPriority(List.of("index", "managedId", "osId", "kinds", "exception"));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrHeap p = context.heap();
    List<ClrThread> threads = p.runtime().threads();
    ClrThread current = context.currentThread();
    List<Row> rows = new ArrayList<>();
    int unstarted = 0;
    int background = 0;
    int dead = 0;
    for (ClrThread t : threads) {
      unstarted += t.isUnstarted() ? 1 : 0;
      background += t.isBackground() ? 1 : 0;
      dead += t.isDead() ? 1 : 0;
      String exceptionType =
          t.currentException() == 0 ? null : GcRoot.typeName(p, t.currentException());
      rows.add(
          new Row(rows.size(), t, exceptionType, current != null && t.osId() == current.osId()));
    }
    context.show(
        Report.builder()
            .values(COUNTS, new Counts(threads.size(), unstarted, background, dead))
            .rows("threads", null, THREADS, rows)
            .primary()
            .build());
  }
}
