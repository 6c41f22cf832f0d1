package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.analysis.TaskState;
import java.util.List;
import java.util.Set;

/** {@code tks|taskstate ADDR | -v VALUE}: a Task's state flags in words. */
final class TaskStateCommand extends SosCommand {
  TaskStateCommand() {
    super(
        "taskstate",
        List.of("tks"),
        "taskstate ADDR | -v VALUE",
        "A Task's status (as Task.Status says it), the state flags set and its creation options;"
            + " -v decodes an m_stateFlags value instead (decimal, or hex after 0x)",
        SosArgs.Spec.of(Set.of(), Set.of("-v"), 0, 1));
  }

  /** A state and the task it is of. */
  record Shown(Long address, TaskState state) {}

  private static final RecordSchema<Shown> STATE =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("address", "Task:", 0, Unit.ADDRESS, Shown::address).optional(),
              Field.of("status", "Status:", 0, Unit.TEXT, (Shown s) -> s.state().status()),
              Field.of("flags", "m_stateFlags:", 0, Unit.COUNT, (Shown s) -> s.state().flags())
                  .cell(s -> "0x" + Integer.toHexString(s.state().flags())),
              Field.of("states", "State flags:", 0, Unit.WORDS, (Shown s) -> s.state().states()),
              Field.of("options", "Options:", 0, Unit.WORDS, (Shown s) -> s.state().options())));

  @Override
  boolean readsTarget(SosArgs args) {
    return args.value("-v") == null;
  }

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    String v = args.value("-v");
    if ((v == null) == (args.positional(0) == null)) {
      throw args.usage("give a task's address or -v VALUE");
    }
    if (v != null) {
      Long value = SosArgs.number(v);
      if (value == null || value < Integer.MIN_VALUE || value > 0xffffffffL) {
        throw args.usage("-v takes a 32-bit number, not " + v);
      }
      context.show(Report.record(STATE, new Shown(null, TaskState.of((int) (long) value))));
      return;
    }
    long address = args.address(0);
    context.show(
        Report.record(STATE, new Shown(address, TaskState.ofTask(context.process(), address))));
  }
}
