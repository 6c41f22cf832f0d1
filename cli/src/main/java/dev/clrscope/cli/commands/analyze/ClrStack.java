package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrProcess;
import dev.clrscope.dac.ClrThread;
import dev.clrscope.dac.StackFrame;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code clrstack [-all]}: the managed frames of the current thread, or of every thread. */
final class ClrStack extends SosCommand {
  ClrStack() {
    super(
        "clrstack",
        List.of(),
        "clrstack [-all]",
        "The managed stack of the current thread (setthread chooses it), innermost frame first;"
            + " -all every thread's",
        SosArgs.Spec.of(Set.of("-all"), Set.of(), 0, 0));
  }

  /** A frame as SOS shows it. */
  static final RecordSchema<StackFrame> FRAME =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("childSp", "CHILD SP", 0, Unit.ADDRESS, StackFrame::sp),
              Field.of("ip", "IP", 0, Unit.ADDRESS, StackFrame::ip),
              Field.of("callSite", "CALL SITE", 0, Unit.TEXT, StackFrame::display),
              Field.data("method", Unit.TEXT, StackFrame::method).optional(),
              Field.data(
                      "methodDesc",
                      Unit.ADDRESS,
                      (StackFrame f) -> f.methodDesc() == 0 ? null : f.methodDesc())
                  .optional(),
              Field.data("frame", Unit.TEXT, StackFrame::frameName).optional()));

  /** A thread's stack. */
  record ThreadStack(ClrThread thread, List<StackFrame> frames) {
    List<String> lines() {
      List<String> lines = new ArrayList<>();
      for (StackFrame f : frames) {
        lines.add(
            String.format(java.util.Locale.ROOT, "%016x %016x %s", f.sp(), f.ip(), f.display()));
      }
      return lines;
    }
  }

  private static final RecordSchema<ThreadStack> STACK =
      new RecordSchema<ThreadStack>(
          null,
          List.of(
              Field.of("osId", "OS THREAD ID", 0, Unit.ID, (ThreadStack s) -> s.thread().osId())
                  .cell(
                      s ->
                          "0x"
                              + Integer.toHexString(s.thread().osId())
                              + " ("
                              + s.thread().osId()
                              + ")"),
              Field.of(
                  "managedId", "MANAGED ID", 0, Unit.ID, (ThreadStack s) -> s.thread().managedId()),
              Field.of("frameCount", "FRAMES", 0, Unit.COUNT, (ThreadStack s) -> s.frames().size()),
              Field.nested("frames", FRAME, ThreadStack::frames)));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrProcess p = context.process();
    List<ThreadStack> stacks = new ArrayList<>();
    if (args.has("-all")) {
      for (ClrThread t : p.threads()) {
        if (t.osId() != 0 && !t.isDead()) {
          stacks.add(new ThreadStack(t, p.stack(t.osId())));
        }
      }
    } else {
      ClrThread t = context.currentThread();
      if (t == null) {
        context.note("The runtime has no thread.");
      } else {
        stacks.add(new ThreadStack(t, p.stack(t.osId())));
      }
    }
    context.show(Report.builder().rows("threads", null, STACK, stacks, ThreadStack::lines).build());
  }
}
