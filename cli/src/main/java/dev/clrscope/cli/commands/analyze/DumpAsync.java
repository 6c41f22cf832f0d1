package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.analysis.AsyncStateMachines;
import dev.clrscope.dac.analysis.Awaiters;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code dumpasync}: the async methods in flight, what each awaits and what continues after. */
final class DumpAsync extends SosCommand {
  DumpAsync() {
    super(
        "dumpasync",
        List.of(),
        "dumpasync [-completed] [-type SUBSTRING] [-addr ADDR]",
        "The async methods in flight (their state machine boxes): the state each is suspended in,"
            + " the task it awaits, and the caller that continues when it completes; -completed"
            + " includes those done",
        SosArgs.Spec.of(Set.of("-completed"), Set.of("-type", "-addr"), 0, 0));
  }

  /** An async method and what it awaits and continues into. */
  record Row(
      AsyncStateMachines.AsyncMethod method,
      long awaiting,
      String awaitingType,
      String continuationType) {}

  private static final RecordSchema<Row> METHODS =
      new RecordSchema<Row>(
              null,
              List.of(
                  Field.of("address", "ADDRESS", 0, Unit.ADDRESS, (Row r) -> r.method().box()),
                  Field.of("method", "METHOD", 0, Unit.TEXT, (Row r) -> r.method().method()),
                  Field.data("stateMachine", Unit.TEXT, (Row r) -> r.method().stateMachineType()),
                  Field.of("state", "STATE", 0, Unit.COUNT, (Row r) -> r.method().state()),
                  Field.of("status", "STATUS", 0, Unit.TEXT, (Row r) -> r.method().status()),
                  Field.of(
                          "awaiting",
                          "AWAITING",
                          0,
                          Unit.TEXT,
                          (Row r) -> ValueText.hex(r.awaiting()))
                      .cell(
                          r ->
                              r.awaiting() == 0
                                  ? ""
                                  : Awaiters.shortName(r.awaitingType())
                                      + " "
                                      + ValueText.hex(r.awaiting()))
                      .optional(),
                  Field.data("awaitingType", Unit.TEXT, Row::awaitingType).optional(),
                  Field.of(
                          "continuation",
                          "CONTINUES",
                          0,
                          Unit.TEXT,
                          (Row r) -> ValueText.hex(r.method().continuation()))
                      .cell(
                          r ->
                              r.method().continuation() == 0
                                  ? ""
                                  : Awaiters.shortName(r.continuationType())
                                      + " "
                                      + ValueText.hex(r.method().continuation()))
                      .optional(),
                  Field.data("continuationType", Unit.TEXT, Row::continuationType).optional()))
          .withPriority(List.of("method", "state", "awaiting", "continuation"));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrHeap p = context.heap();
    String type = args.value("-type");
    long address = args.addressOption("-addr", 0);
    List<Row> shown = new ArrayList<>();
    for (AsyncStateMachines.AsyncMethod m : AsyncStateMachines.all(p)) {
      boolean done =
          m.status().equals("RanToCompletion")
              || m.status().equals("Faulted")
              || m.status().equals("Canceled");
      if ((done && !args.has("-completed"))
          || (type != null && !m.stateMachineType().contains(type))
          || (address != 0 && m.box() != address)) {
        continue;
      }
      long awaiting = Awaiters.awaited(p, m.box());
      shown.add(
          new Row(
              m,
              awaiting,
              GcRoot.typeNameOrNull(p, awaiting),
              GcRoot.typeNameOrNull(p, m.continuation())));
    }
    context.show(
        Report.builder()
            .rows(null, null, METHODS, shown)
            .note(
                shown.size()
                    + " async method"
                    + (shown.size() == 1 ? "" : "s")
                    + (args.has("-completed")
                        ? "."
                        : " in flight (-completed shows those done too)."))
            .build());
  }
}
