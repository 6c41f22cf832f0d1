package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.analysis.TaskStates;
import java.util.List;
import java.util.Set;

/** {@code tks|taskstate ADDR | -v VALUE}: a Task's state flags in words. */
final class TaskStateCommand extends SosCommand {
  TaskStateCommand() {
    super(
        "taskstate",
        List.of("tks"),
        "taskstate ADDR | -v VALUE",
        "A Task's status (as Task.Status says it) and every state flag and option set; -v decodes"
            + " an m_stateFlags value instead (decimal, or hex after 0x)",
        SosArgs.Spec.of(Set.of(), Set.of("-v"), 0, 1));
  }

  /** A task's flags. */
  record Shown(Long address, int flags) {}

  private static final RecordSchema<Shown> STATE =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("address", "Task:", 0, Unit.ADDRESS, Shown::address).optional(),
              Field.of(
                  "status", "Status:", 0, Unit.TEXT, (Shown s) -> TaskStates.status(s.flags())),
              Field.of("stateFlags", "m_stateFlags:", 0, Unit.COUNT, Shown::flags)
                  .cell(s -> "0x" + Integer.toHexString(s.flags())),
              Field.of(
                  "flags", "Flags:", 0, Unit.WORDS, (Shown s) -> TaskStates.flags(s.flags()))));

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
      context.show(Report.record(STATE, new Shown(null, (int) (long) value)));
      return;
    }
    long address = args.address(0);
    ClrObject task = context.heap().object(address);
    if (task.type().field("m_stateFlags") == null) {
      throw new TargetException(
          TargetException.Problem.NOT_AN_OBJECT,
          ValueText.hex(address)
              + " is not a Task: it is a "
              + task.type().name()
              + " (taskstate -v VALUE decodes a state value)");
    }
    context.show(Report.record(STATE, new Shown(address, task.intField("m_stateFlags"))));
  }
}
