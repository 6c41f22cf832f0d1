package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.FrameFields;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrThread;
import dev.clrscope.dac.StackFrame;
import dev.clrscope.symbols.SourceLine;
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

  /** A frame and its source line (null when its PDB or IL offset is not known). */
  record Located(StackFrame frame, SourceLine line) {
    /** The call site as SOS shows it, and the line as clrscope does: {@code M() (File.cs:42)}. */
    String callSite() {
      return line == null ? frame.display() : frame.display() + " (" + line.text() + ")";
    }

    /** A frame's line of text under its thread or exception. */
    String text() {
      return String.format(
          java.util.Locale.ROOT, "%016x %016x %s", frame.sp(), frame.ip(), callSite());
    }

    /** {@code frames} with {@code lines}, in order. */
    static List<Located> of(List<StackFrame> frames, List<SourceLine> lines) {
      List<Located> located = new ArrayList<>(frames.size());
      for (int i = 0; i < frames.size(); i++) {
        located.add(new Located(frames.get(i), lines.get(i)));
      }
      return located;
    }
  }

  /** A frame as SOS shows it, with its source line. */
  static final RecordSchema<Located> FRAME = frameSchema();

  private static RecordSchema<Located> frameSchema() {
    List<Field<Located>> f = new ArrayList<>();
    f.add(Field.of("childSp", "CHILD SP", 0, Unit.ADDRESS, (Located l) -> l.frame().sp()));
    f.add(Field.of("ip", "IP", 0, Unit.ADDRESS, (Located l) -> l.frame().ip()));
    f.add(
        Field.of("callSite", "CALL SITE", 0, Unit.TEXT, (Located l) -> l.frame().display())
            .cell(Located::callSite));
    f.add(Field.data("method", Unit.TEXT, (Located l) -> l.frame().method()).optional());
    f.addAll(FrameFields.lineFields(Located::line, null));
    f.add(
        Field.data(
                "methodDesc",
                Unit.ADDRESS,
                (Located l) -> l.frame().methodDesc() == 0 ? null : l.frame().methodDesc())
            .optional());
    f.add(Field.data("frame", Unit.TEXT, (Located l) -> l.frame().frameName()).optional());
    return new RecordSchema<>(null, f);
  }

  /** A thread's stack. */
  record ThreadStack(ClrThread thread, List<Located> frames) {
    List<String> lines() {
      List<String> lines = new ArrayList<>();
      for (Located f : frames) {
        lines.add(f.text());
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
    ClrHeap p = context.heap();
    List<ThreadStack> stacks = new ArrayList<>();
    if (args.has("-all")) {
      for (ClrThread t : p.runtime().threads()) {
        if (t.osId() != 0 && !t.isDead()) {
          stacks.add(stack(context, t));
        }
      }
    } else {
      ClrThread t = context.currentThread();
      if (t == null) {
        context.note("The runtime has no thread.");
      } else {
        stacks.add(stack(context, t));
      }
    }
    context.show(Report.builder().rows("threads", null, STACK, stacks, ThreadStack::lines).build());
  }

  /** A thread's frames with their lines: the innermost is where the thread is. */
  private static ThreadStack stack(AnalyzeContext context, ClrThread t) {
    List<StackFrame> frames = context.runtime().stack(t.osId());
    return new ThreadStack(t, Located.of(frames, context.lines(frames, true)));
  }
}
