package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.FrameFields;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.analysis.ParallelStacks;
import java.util.List;

/** {@code pstacks}: every thread's stack merged into one tree. */
final class ParallelStacksCommand extends SosCommand {
  ParallelStacksCommand() {
    super(
        "pstacks",
        List.of("parallelstacks"),
        "pstacks",
        "The managed stacks of all threads merged into a tree from the outermost frame in: each"
            + " branch with how many threads run through it, and at each end the thread ids",
        SosArgs.Spec.none());
  }

  private static final RecordSchema<ParallelStacks.Node> NODE =
      new RecordSchema<ParallelStacks.Node>(
              null,
              withLines(
                  Field.of(
                      "threadCount",
                      "THREADS",
                      0,
                      Unit.COUNT,
                      (ParallelStacks.Node n) -> n.threads().size()),
                  Field.of("frame", "FRAME", 0, Unit.TEXT, ParallelStacks.Node::frame)
                      .cell(
                          n ->
                              n.line() == null
                                  ? n.frame()
                                  : n.frame() + " (" + n.line().text() + ")")
                      .cutAtStart(),
                  Field.of(
                          "endingHere",
                          "ENDS HERE (OS THREAD IDS)",
                          0,
                          Unit.WORDS,
                          ParallelStacks.Node::endingHere)
                      .only(Field.Shown.TABLE),
                  Field.data("threads", Unit.WORDS, ParallelStacks.Node::threads)))
          .withPriority(List.of("frame", "threadCount"))
          .withKey("frame");

  /** The node's fields, its line's ({@code file}, {@code line}) after its frame's. */
  @SafeVarargs
  private static List<Field<ParallelStacks.Node>> withLines(Field<ParallelStacks.Node>... fields) {
    List<Field<ParallelStacks.Node>> all = new java.util.ArrayList<>();
    for (Field<ParallelStacks.Node> f : fields) {
      all.add(f);
      if (f.key().equals("frame")) {
        all.addAll(FrameFields.lineFields(ParallelStacks.Node::line, null));
      }
    }
    return all;
  }

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    List<ParallelStacks.Node> roots = ParallelStacks.of(context.runtime(), context.sourceLines());
    context.sayLineProblems();
    context.show(
        Report.builder()
            .tree(null, null, NODE, roots, ParallelStacks.Node::children, "frame")
            .build());
  }
}
