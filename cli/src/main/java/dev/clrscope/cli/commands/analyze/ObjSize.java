package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrObject;
import java.util.List;

/** {@code objsize ADDR}: an object and everything it reaches, counted once each. */
final class ObjSize extends SosCommand {
  ObjSize() {
    super(
        "objsize",
        List.of(),
        "objsize ADDR",
        "The objects an object reaches through its references (itself included, each once) and"
            + " their total size",
        SosArgs.Spec.one());
  }

  /** The answer. */
  record Size(ClrObject object, ClrHeap.ObjectSize size) {
    String line() {
      // SOS's line: the size in decimal and in hex.
      return "sizeof("
          + Unit.address(object.address())
          + ") = "
          + Unit.count(size.bytes())
          + " ("
          + Unit.address(size.bytes())
          + ") bytes ("
          + object.type().name()
          + "), "
          + Unit.count(size.objects())
          + " objects";
    }
  }

  private static final RecordSchema<Size> SIZE =
      new RecordSchema<>(
          null,
          List.of(
              Field.data("address", Unit.ADDRESS, (Size s) -> s.object().address()),
              Field.data("type", Unit.TEXT, (Size s) -> s.object().type().name()),
              Field.data("objects", Unit.COUNT, (Size s) -> s.size().objects()),
              Field.data("bytes", Unit.COUNT, (Size s) -> s.size().bytes()),
              Field.of("line", "", 0, Unit.TEXT, (Size s) -> null)
                  .cell(Size::line)
                  .only(Field.Shown.TABLE)));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrHeap p = context.heap();
    ClrObject o = p.object(args.address(0));
    context.show(Report.record(SIZE, new Size(o, p.objectSize(o.address()))));
  }
}
