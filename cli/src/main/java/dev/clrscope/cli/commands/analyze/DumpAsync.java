package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.analysis.AsyncStateMachines;
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

  private static final RecordSchema<AsyncStateMachines.AsyncMethod> METHODS =
      new RecordSchema<AsyncStateMachines.AsyncMethod>(
              null,
              List.of(
                  Field.of(
                      "address",
                      "ADDRESS",
                      0,
                      Unit.ADDRESS,
                      AsyncStateMachines.AsyncMethod::address),
                  Field.of(
                      "method", "METHOD", 0, Unit.TEXT, AsyncStateMachines.AsyncMethod::method),
                  Field.data(
                      "stateMachine", Unit.TEXT, AsyncStateMachines.AsyncMethod::stateMachine),
                  Field.of("state", "STATE", 0, Unit.COUNT, AsyncStateMachines.AsyncMethod::state),
                  Field.of(
                      "status", "STATUS", 0, Unit.TEXT, AsyncStateMachines.AsyncMethod::status),
                  Field.of(
                          "awaiting",
                          "AWAITING",
                          0,
                          Unit.TEXT,
                          (AsyncStateMachines.AsyncMethod m) -> ValueText.hex(m.awaiting()))
                      .cell(
                          m ->
                              m.awaiting() == 0
                                  ? ""
                                  : AsyncStateMachines.shortName(m.awaitingType())
                                      + " 0x"
                                      + Long.toHexString(m.awaiting()))
                      .optional(),
                  Field.data(
                          "awaitingType", Unit.TEXT, AsyncStateMachines.AsyncMethod::awaitingType)
                      .optional(),
                  Field.of(
                          "continuation",
                          "CONTINUES",
                          0,
                          Unit.TEXT,
                          (AsyncStateMachines.AsyncMethod m) -> ValueText.hex(m.continuation()))
                      .cell(
                          m ->
                              m.continuation() == 0
                                  ? ""
                                  : AsyncStateMachines.shortName(m.continuationType())
                                      + " 0x"
                                      + Long.toHexString(m.continuation()))
                      .optional(),
                  Field.data(
                          "continuationType",
                          Unit.TEXT,
                          AsyncStateMachines.AsyncMethod::continuationType)
                      .optional()))
          .withPriority(List.of("method", "state", "awaiting", "continuation"));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    String type = args.value("-type");
    long address = args.addressOption("-addr", 0);
    List<AsyncStateMachines.AsyncMethod> shown = new ArrayList<>();
    for (AsyncStateMachines.AsyncMethod m : AsyncStateMachines.of(context.process())) {
      boolean done =
          m.status().equals("RanToCompletion")
              || m.status().equals("Faulted")
              || m.status().equals("Canceled");
      if ((done && !args.has("-completed"))
          || (type != null && !m.stateMachine().contains(type))
          || (address != 0 && m.address() != address)) {
        continue;
      }
      shown.add(m);
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
