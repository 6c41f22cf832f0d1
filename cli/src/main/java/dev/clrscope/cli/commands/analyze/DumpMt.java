package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrField;
import dev.clrscope.dac.ClrProcess;
import dev.clrscope.dac.ClrType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code dumpmt MT}: a type by its method table, and its fields. */
final class DumpMt extends SosCommand {
  DumpMt() {
    super(
        "dumpmt",
        List.of(),
        "dumpmt MT",
        "A type by its method table: name, parent, module, token, base and component size, and"
            + " its fields (instance and static) with their offsets",
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

  private static final RecordSchema<ClrField> FIELDS =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("offset", "OFFSET", 0, Unit.COUNT, ClrField::offset),
              Field.of("fieldType", "TYPE", 0, Unit.TEXT, ClrField::typeName),
              Field.of(
                  "attr",
                  "ATTR",
                  0,
                  Unit.TEXT,
                  (ClrField f) -> f.kind().name().toLowerCase(Locale.ROOT).replace("_", "")),
              Field.of("name", "NAME", 0, Unit.TEXT, ClrField::name)));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrProcess p = context.process();
    ClrType t = p.type(args.address(0));
    List<ClrField> fields = new ArrayList<>(t.fields());
    fields.addAll(t.staticFields());
    context.show(
        Report.builder()
            .values(HEAD, new Head(t, t.parent(), DumpObj.moduleFile(p, t)))
            .rows("fields", "Fields:", FIELDS, fields)
            .build());
  }
}
