package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.analysis.Timers;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ti|timerinfo}: every timer with its due time, period and callback, grouped by callback.
 */
final class TimerInfo extends SosCommand {
  TimerInfo() {
    super(
        "timerinfo",
        List.of("ti"),
        "timerinfo",
        "Every timer the runtime will fire (Timer, Task.Delay, System.Timers.Timer): due time,"
            + " period, callback and its target; then how many timers call each callback",
        SosArgs.Spec.none());
  }

  /** A timer and the types of the objects it names. */
  record Row(Timers.TimerInfo timer, String targetType, String stateType) {
    boolean periodic() {
      return timer.periodMs() != Timers.INFINITE && timer.periodMs() != 0;
    }

    boolean never() {
      return timer.dueTimeMs() == Timers.INFINITE;
    }

    String callback() {
      return timer.callback() != null ? timer.callback() : "?";
    }
  }

  private static final RecordSchema<Row> TIMERS =
      new RecordSchema<Row>(
              null,
              List.of(
                  Field.of("address", "ADDRESS", 0, Unit.ADDRESS, (Row r) -> r.timer().address()),
                  Field.of(
                          "dueTimeMs",
                          "DUE (MS)",
                          0,
                          Unit.COUNT,
                          (Row r) -> r.never() ? null : r.timer().dueTimeMs())
                      .cell(r -> r.never() ? "never" : Unit.COUNT.text(r.timer().dueTimeMs())),
                  Field.of(
                          "periodMs",
                          "EVERY (MS)",
                          0,
                          Unit.COUNT,
                          (Row r) -> r.periodic() ? r.timer().periodMs() : null)
                      .cell(r -> r.periodic() ? Unit.COUNT.text(r.timer().periodMs()) : "once"),
                  Field.of("canceled", "CANCELED", 0, Unit.TEXT, (Row r) -> r.timer().canceled())
                      .cell(r -> r.timer().canceled() ? "yes" : ""),
                  Field.of("callback", "CALLBACK", 0, Unit.TEXT, Row::callback),
                  Field.of("target", "TARGET", 0, Unit.TEXT, Row::targetType).optional(),
                  Field.data(
                          "targetAddress",
                          Unit.TEXT,
                          (Row r) -> ValueText.hex(r.timer().callbackTarget()))
                      .optional(),
                  Field.of("stateType", "STATE", 0, Unit.TEXT, Row::stateType).optional(),
                  Field.data("state", Unit.TEXT, (Row r) -> ValueText.hex(r.timer().state()))
                      .optional()))
          .withPriority(List.of("callback", "dueTimeMs", "periodMs", "address"));

  /** A callback and how many timers or work items call it. */
  record ByCallback(String callback, int count) {}

  static final RecordSchema<ByCallback> BY_CALLBACK =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("count", "COUNT", 0, Unit.COUNT, ByCallback::count),
              Field.of("callback", "CALLBACK", 0, Unit.TEXT, ByCallback::callback)));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrHeap p = context.heap();
    List<Row> rows = new ArrayList<>();
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (Timers.TimerInfo t : Timers.all(p)) {
      Row r =
          new Row(
              t, GcRoot.typeNameOrNull(p, t.callbackTarget()), GcRoot.typeNameOrNull(p, t.state()));
      rows.add(r);
      counts.merge(r.callback(), 1, Integer::sum);
    }
    context.show(
        Report.builder()
            .rows("timers", null, TIMERS, rows)
            .primary()
            .rows("byCallback", "Timers per callback:", BY_CALLBACK, byCount(counts))
            .note(rows.size() + " timer" + (rows.size() == 1 ? "" : "s") + ".")
            .build());
  }

  /** Counts per callback, most first. */
  static List<ByCallback> byCount(Map<String, Integer> counts) {
    List<ByCallback> rows = new ArrayList<>();
    counts.forEach((k, v) -> rows.add(new ByCallback(k, v)));
    rows.sort(
        Comparator.comparingInt((ByCallback b) -> -b.count()).thenComparing(ByCallback::callback));
    return rows;
  }
}
