package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrType;
import dev.clrscope.dac.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code dumparray|da ADDR}: an array's elements. */
final class DumpArray extends SosCommand {
  DumpArray() {
    super(
        "dumparray",
        List.of("da"),
        "dumparray [-start N] [-length N] ADDR",
        "An array: its element type, length, and each element's value (for references the"
            + " object's type, for strings their text)",
        SosArgs.Spec.of(Set.of(), Set.of("-start", "-length"), 1, 1));
  }

  /** The array on its own. */
  record Head(ClrObject array, String elementType) {}

  private static final RecordSchema<Head> HEAD =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("address", "Address:", 0, Unit.ADDRESS, (Head h) -> h.array().address()),
              Field.of("type", "Name:", 0, Unit.TEXT, (Head h) -> h.array().type().name()),
              Field.of(
                  "methodTable",
                  "MethodTable:",
                  0,
                  Unit.ADDRESS,
                  (Head h) -> h.array().type().methodTable()),
              Field.of("size", "Size:", 0, Unit.COUNT, (Head h) -> h.array().size()),
              Field.of(
                  "length", "Number of elements:", 0, Unit.COUNT, (Head h) -> h.array().length()),
              Field.of("elementType", "Element type:", 0, Unit.TEXT, Head::elementType)));

  /** An element. */
  record Element(long index, long address, Value value, String type, String string) {}

  private static final RecordSchema<Element> ELEMENTS =
      new RecordSchema<Element>(
              null,
              List.of(
                  Field.of("index", "INDEX", 0, Unit.COUNT, Element::index)
                      .cell(e -> "[" + e.index() + "]"),
                  Field.of("address", "AT", 0, Unit.ADDRESS, Element::address)
                      .only(dev.clrscope.cli.render.Field.Shown.DATA),
                  Field.of("value", "VALUE", 0, Unit.TEXT, (Element e) -> ValueText.json(e.value()))
                      .cell(e -> ValueText.cell(e.value(), e.string())),
                  Field.data("string", Unit.TEXT, Element::string).optional(),
                  Field.of("type", "TYPE", 0, Unit.TEXT, Element::type)))
          .withPriority(List.of("index", "value", "type"));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrHeap p = context.heap();
    ClrObject array = p.object(args.address(0));
    ClrType t = array.type();
    if (!t.isArray()) {
      throw new dev.clrscope.dac.TargetException(
          dev.clrscope.dac.TargetException.Problem.NOT_AN_OBJECT,
          "0x"
              + Long.toHexString(array.address())
              + " is not an array: it is a "
              + t.name()
              + " (dumpobj shows it)");
    }
    long length = array.length();
    long start = args.numberOption("-start", 0);
    long count = args.numberOption("-length", length);
    if (start > length) {
      throw args.usage("-start " + start + " is past the array's " + length + " elements");
    }
    long end = Math.min(length, start + count);
    ClrType element = t.elementClrType();
    List<Element> rows = new ArrayList<>();
    for (long i = start; i < end; i++) {
      Value v = array.element(i);
      ClrType held = ValueText.typeOf(p, v);
      rows.add(
          new Element(
              i,
              array.elementAddress(i),
              v,
              held != null ? held.name() : element == null ? null : element.name(),
              held != null && held.isString() ? ValueText.stringOf(p, v) : null));
    }
    context.show(
        Report.builder()
            .values(
                HEAD, new Head(array, element != null ? element.name() : t.elementType().name()))
            .rows("elements", null, ELEMENTS, rows)
            .primary()
            .build());
  }
}
