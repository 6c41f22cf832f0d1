package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrThread;
import dev.clrscope.dac.TargetException;
import java.util.List;
import java.util.Set;

/** {@code setthread [-t OSID] [INDEX]}: the thread clrstack and pe look at. */
final class SetThread extends SosCommand {
  SetThread() {
    super(
        "setthread",
        List.of("threadstate"),
        "setthread [-t OSID | INDEX]",
        "Chooses the current thread (for clrstack and pe) by its index in threads or its OS id;"
            + " alone, shows the current thread",
        SosArgs.Spec.of(Set.of(), Set.of("-t"), 0, 1));
  }

  private static final RecordSchema<ClrThread> CURRENT =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("osId", "Current thread OS id:", 0, Unit.ID, ClrThread::osId),
              Field.of("managedId", "Managed id:", 0, Unit.ID, ClrThread::managedId)));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    List<ClrThread> threads = context.runtime().threads();
    String index = args.positional(0);
    if (args.value("-t") != null && index != null) {
      throw args.usage("give -t OSID or INDEX, not both");
    }
    if (args.value("-t") != null) {
      long os = args.numberOption("-t", 0);
      ClrThread chosen = null;
      for (ClrThread t : threads) {
        if (t.osId() == os) {
          chosen = t;
        }
      }
      if (chosen == null) {
        throw new TargetException(
            TargetException.Problem.NOT_AN_OBJECT,
            "the runtime has no thread with OS id " + os + " (threads lists them)");
      }
      context.session().currentThread = chosen.osId();
    } else if (index != null) {
      Long i = SosArgs.number(index);
      if (i == null || i < 0 || i >= threads.size()) {
        throw args.usage(
            "no thread " + index + ": threads numbers them 0 to " + (threads.size() - 1));
      }
      context.session().currentThread = threads.get(i.intValue()).osId();
    }
    ClrThread current = context.currentThread();
    if (current == null) {
      context.note("The runtime has no thread.");
      return;
    }
    context.show(Report.record(CURRENT, current));
  }
}
