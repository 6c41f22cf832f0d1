package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.analysis.ThreadPoolQueues;
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

  private static final RecordSchema<ThreadPoolQueues.WorkItem> ITEMS =
      new RecordSchema<ThreadPoolQueues.WorkItem>(
              null,
              List.of(
                  Field.of("queue", "QUEUE", 0, Unit.TEXT, ThreadPoolQueues.WorkItem::queue),
                  Field.of(
                      "address", "ADDRESS", 0, Unit.ADDRESS, ThreadPoolQueues.WorkItem::address),
                  Field.of("type", "TYPE", 0, Unit.TEXT, ThreadPoolQueues.WorkItem::type),
                  Field.of(
                          "callback", "CALLBACK", 0, Unit.TEXT, ThreadPoolQueues.WorkItem::callback)
                      .optional(),
                  Field.data(
                          "state",
                          Unit.TEXT,
                          (ThreadPoolQueues.WorkItem w) -> ValueText.hex(w.state()))
                      .optional()))
          .withPriority(List.of("callback", "queue", "type"));

  /** Whether an item waits in a worker's own queue rather than one every worker takes from. */
  static boolean isLocal(ThreadPoolQueues.WorkItem w) {
    return w.queue().startsWith("local");
  }

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    List<ThreadPoolQueues.WorkItem> items = ThreadPoolQueues.all(context.heap());
    Map<String, Integer> counts = new LinkedHashMap<>();
    long local = 0;
    for (ThreadPoolQueues.WorkItem w : items) {
      counts.merge(w.callback() != null ? w.callback() : w.type(), 1, Integer::sum);
      local += isLocal(w) ? 1 : 0;
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
                    + (items.size() - local)
                    + " in the global queues, "
                    + local
                    + " in local queues.")
            .build());
  }
}
