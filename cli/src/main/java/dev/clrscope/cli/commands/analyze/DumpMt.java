package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrField;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code dumpmt MT}: a type by its method table, and its fields. */
final class DumpMt extends SosCommand {
  DumpMt() {
    super(
        "dumpmt",
        List.of("dumpclass"),
        "dumpmt MT",
        "A type by its method table: name, parent, module, token, base and component size, and"
            + " its fields with their offsets, static fields with their values (name2ee finds a"
            + " type's method table)",
        SosArgs.Spec.one());
  }

  /** The type on its own. */
  record Head(ClrType type, ClrType parent, String file) {}

  private static final RecordSchema<Head> HEAD =
      new RecordSchema<>(
          null,
          List.of(
              Field.of(
                  "methodTable",
                  "MethodTable:",
                  0,
                  Unit.ADDRESS,
                  (Head h) -> h.type().methodTable()),
              Field.of("type", "Name:", 0, Unit.TEXT, (Head h) -> h.type().name()),
              Field.of(
                      "parentMethodTable",
                      "Parent MethodTable:",
                      0,
                      Unit.ADDRESS,
                      (Head h) -> h.parent() == null ? null : h.parent().methodTable())
                  .optional(),
              Field.of(
                      "parent",
                      "Parent:",
                      0,
                      Unit.TEXT,
                      (Head h) -> h.parent() == null ? null : h.parent().name())
                  .optional(),
              Field.of("module", "Module:", 0, Unit.ADDRESS, (Head h) -> h.type().module()),
              Field.of("file", "File:", 0, Unit.TEXT, Head::file).optional(),
              Field.of(
                  "token",
                  "mdToken:",
                  0,
                  Unit.TEXT,
                  (Head h) -> String.format(Locale.ROOT, "0x%08x", h.type().token())),
              Field.of("baseSize", "BaseSize:", 0, Unit.COUNT, (Head h) -> h.type().baseSize()),
              Field.of(
                  "componentSize",
                  "ComponentSize:",
                  0,
                  Unit.COUNT,
                  (Head h) -> h.type().componentSize()),
              Field.of(
                  "containsPointers",
                  "ContainsPointers:",
                  0,
                  Unit.TEXT,
                  (Head h) -> h.type().containsPointers()),
              Field.of(
                  "instanceFields",
                  "NumInstanceFields:",
                  0,
                  Unit.COUNT,
                  (Head h) -> h.type().fields().size()),
              Field.of(
                  "staticFields",
                  "NumStaticFields:",
                  0,
                  Unit.COUNT,
                  (Head h) -> h.type().staticFields().size())));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrHeap p = context.heap();
    ClrType t = p.runtime().type(args.address(0));
    List<DumpObj.FieldRow> fields = new ArrayList<>();
    for (ClrField f : t.fields()) {
      fields.add(
          new DumpObj.FieldRow(f, f.offset() + DumpObj.OBJECT_HEADER, "instance", null, null));
    }
    fields.addAll(DumpObj.statics(p, t));
    context.show(
        Report.builder()
            .values(HEAD, new Head(t, t.parent(), DumpObj.moduleFile(p, t)))
            .rows("fields", "Fields:", DumpObj.FIELDS, fields)
            .build());
  }
}
