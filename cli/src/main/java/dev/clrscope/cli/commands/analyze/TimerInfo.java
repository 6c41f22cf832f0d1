package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.analysis.Timers;
import java.util.ArrayList;
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

  private static final RecordSchema<Timers.TimerInfo> TIMERS =
      new RecordSchema<Timers.TimerInfo>(
              null,
              List.of(
                  Field.of("address", "ADDRESS", 0, Unit.ADDRESS, Timers.TimerInfo::address),
                  Field.of(
                          "dueTimeMs",
                          "DUE (MS)",
                          0,
                          Unit.COUNT,
                          (Timers.TimerInfo t) ->
                              t.dueTimeMs() == Timers.INFINITE ? null : t.dueTimeMs())
                      .cell(
                          t ->
                              t.dueTimeMs() == Timers.INFINITE
                                  ? "never"
                                  : Unit.COUNT.text(t.dueTimeMs())),
                  Field.of(
                          "periodMs",
                          "EVERY (MS)",
                          0,
                          Unit.COUNT,
                          (Timers.TimerInfo t) -> t.periodic() ? t.periodMs() : null)
                      .cell(t -> t.periodic() ? Unit.COUNT.text(t.periodMs()) : "once"),
                  Field.of("canceled", "CANCELED", 0, Unit.TEXT, Timers.TimerInfo::canceled)
                      .cell(t -> t.canceled() ? "yes" : ""),
                  Field.of("callback", "CALLBACK", 0, Unit.TEXT, (Timers.TimerInfo t) -> method(t)),
                  Field.of(
                          "target",
                          "TARGET",
                          0,
                          Unit.TEXT,
                          (Timers.TimerInfo t) ->
                              t.callback() == null ? null : t.callback().targetType())
                      .optional(),
                  Field.data(
                          "targetAddress",
                          Unit.ADDRESS,
                          (Timers.TimerInfo t) ->
                              t.callback() == null || t.callback().target() == 0
                                  ? null
                                  : t.callback().target())
                      .optional(),
                  Field.of("stateType", "STATE", 0, Unit.TEXT, Timers.TimerInfo::stateType)
                      .optional(),
                  Field.data(
                          "state",
                          Unit.ADDRESS,
                          (Timers.TimerInfo t) -> t.state() == 0 ? null : t.state())
                      .optional()))
          .withPriority(List.of("callback", "dueTimeMs", "periodMs", "address"));

  /** A callback and how many timers call it. */
  record ByCallback(String callback, int count) {}

  static final RecordSchema<ByCallback> BY_CALLBACK =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("count", "COUNT", 0, Unit.COUNT, ByCallback::count),
              Field.of("callback", "CALLBACK", 0, Unit.TEXT, ByCallback::callback)));

  static String method(Timers.TimerInfo t) {
    return t.callback() == null ? null : t.callback().display();
  }

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    List<Timers.TimerInfo> timers = Timers.of(context.process());
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (Timers.TimerInfo t : timers) {
      counts.merge(String.valueOf(method(t)), 1, Integer::sum);
    }
    context.show(
        Report.builder()
            .rows("timers", null, TIMERS, timers)
            .primary()
            .rows("byCallback", "Timers per callback:", BY_CALLBACK, byCount(counts))
            .note(timers.size() + " timer" + (timers.size() == 1 ? "" : "s") + ".")
            .build());
  }

  /** Counts per callback, most first. */
  static List<ByCallback> byCount(Map<String, Integer> counts) {
    List<ByCallback> rows = new ArrayList<>();
    counts.forEach((k, v) -> rows.add(new ByCallback(k, v)));
    rows.sort(
        java.util.Comparator.comparingInt((ByCallback b) -> -b.count())
            .thenComparing(ByCallback::callback));
    return rows;
  }
}
