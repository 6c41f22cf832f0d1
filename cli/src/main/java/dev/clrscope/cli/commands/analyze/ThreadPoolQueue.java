package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.analysis.WorkItems;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code tpq|threadpoolqueue}: the work waiting in the thread pool's queues. */
final class ThreadPoolQueue extends SosCommand {
  ThreadPoolQueue() {
    super(
        "threadpoolqueue",
        List.of("tpq"),
        "threadpoolqueue",
        "The work items and tasks waiting in the thread pool's global queues and in each"
            + " worker's local queue, with what each will run; then how many wait per callback",
        SosArgs.Spec.none());
  }

  private static final RecordSchema<WorkItems.WorkItem> ITEMS =
      new RecordSchema<WorkItems.WorkItem>(
              null,
              List.of(
                  Field.of("queue", "QUEUE", 0, Unit.TEXT, WorkItems.WorkItem::queue),
                  Field.of("address", "ADDRESS", 0, Unit.ADDRESS, WorkItems.WorkItem::address),
                  Field.of("type", "TYPE", 0, Unit.TEXT, WorkItems.WorkItem::type),
                  Field.of("callback", "CALLBACK", 0, Unit.TEXT, WorkItems.WorkItem::callback)
                      .optional()))
          .withPriority(List.of("callback", "queue", "type"));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    List<WorkItems.WorkItem> items = WorkItems.of(context.process());
    Map<String, Integer> counts = new LinkedHashMap<>();
    long global = 0;
    for (WorkItems.WorkItem w : items) {
      counts.merge(w.what(), 1, Integer::sum);
      global += w.queue().startsWith("global") ? 1 : 0;
    }
    context.show(
        Report.builder()
            .rows("workItems", null, ITEMS, items)
            .primary()
            .rows(
                "byCallback",
                "Work items per callback:",
                TimerInfo.BY_CALLBACK,
                TimerInfo.byCount(counts))
            .note(
                items.size()
                    + " work items: "
                    + global
                    + " in the global queues, "
                    + (items.size() - global)
                    + " in local queues.")
            .build());
  }
}
