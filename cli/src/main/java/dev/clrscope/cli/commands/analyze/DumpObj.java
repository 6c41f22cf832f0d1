package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrField;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrModule;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrType;
import dev.clrscope.dac.ClrValue;
import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.Value;
import java.util.ArrayList;
import java.util.List;

/** {@code dumpobj|do ADDR}: an object's type, size and every field with its value. */
final class DumpObj extends SosCommand {
  DumpObj() {
    super(
        "dumpobj",
        List.of("do"),
        "dumpobj ADDR",
        "An object: its type, method table, size, module, and every field (offset, type, value,"
            + " name; strings and numbers shown), statics included",
        SosArgs.Spec.one());
  }

  /** The object on its own. */
  record Head(ClrObject object, String file, String string, Long length) {}

  static final RecordSchema<Head> HEAD =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("address", "Address:", 0, Unit.ADDRESS, (Head h) -> h.object().address()),
              Field.of("type", "Name:", 0, Unit.TEXT, (Head h) -> h.object().type().name()),
              Field.of(
                  "methodTable",
                  "MethodTable:",
                  0,
                  Unit.ADDRESS,
                  (Head h) -> h.object().type().methodTable()),
              Field.of("size", "Size:", 0, Unit.COUNT, (Head h) -> h.object().size()),
              Field.of("file", "File:", 0, Unit.TEXT, Head::file).optional(),
              Field.of("string", "String:", 0, Unit.TEXT, Head::string).optional(),
              Field.of("length", "Length:", 0, Unit.COUNT, Head::length).optional()));

  /**
   * A field and its value.
   *
   * @param offset where it is as SOS counts it: from the object's start (after its header) for an
   *     instance field, from the static base for a static
   */
  record FieldRow(ClrField field, int offset, String attr, Value value, String string) {}

  static final RecordSchema<FieldRow> FIELDS =
      new RecordSchema<FieldRow>(
              null,
              List.of(
                  Field.of(
                      "methodTable",
                      "MT",
                      0,
                      Unit.ADDRESS,
                      (FieldRow r) ->
                          r.field().fieldTypeMethodTable() == 0
                              ? null
                              : r.field().fieldTypeMethodTable()),
                  Field.of("offset", "OFFSET", 0, Unit.COUNT, FieldRow::offset),
                  Field.of("fieldType", "TYPE", 0, Unit.TEXT, (FieldRow r) -> r.field().typeName()),
                  Field.of(
                      "valueType",
                      "VT",
                      0,
                      Unit.COUNT,
                      (FieldRow r) -> r.field().elementType().isValueType() ? 1 : 0),
                  Field.of("attr", "ATTR", 0, Unit.TEXT, FieldRow::attr),
                  Field.of(
                          "value",
                          "VALUE",
                          0,
                          Unit.TEXT,
                          (FieldRow r) -> r.value() == null ? null : ValueText.json(r.value()))
                      .cell(r -> r.value() == null ? "-" : ValueText.cell(r.value(), r.string())),
                  Field.data("string", Unit.TEXT, FieldRow::string).optional(),
                  Field.of("name", "NAME", 0, Unit.TEXT, (FieldRow r) -> r.field().name())))
          .withPriority(List.of("name", "value", "fieldType", "offset"));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrHeap p = context.heap();
    ClrObject o = p.object(args.address(0));
    context.show(report(p, o));
  }

  static Report report(ClrHeap p, ClrObject o) {
    ClrType t = o.type();
    String string = t.isString() ? ValueText.cut(o.asString()) : null;
    Long length = t.isArray() ? o.length() : null;
    return Report.builder()
        .values(HEAD, new Head(o, moduleFile(p, t), string, length))
        .rows("fields", "Fields:", FIELDS, fields(p, o))
        .build();
  }

  /** Every instance field of an object with its value, then the type's statics. */
  static List<FieldRow> fields(ClrHeap p, ClrObject o) {
    List<FieldRow> rows = new ArrayList<>();
    for (ClrValue.FieldValue f : o.fieldValues()) {
      rows.add(
          new FieldRow(
              f.field(),
              f.field().offset() + OBJECT_HEADER,
              "instance",
              f.value(),
              ValueText.stringOf(p, f.value())));
    }
    rows.addAll(statics(p, o.type()));
    return rows;
  }

  /** An object's fields count from its method table pointer: SOS's offsets include it. */
  static final int OBJECT_HEADER = 8;

  /** The static and thread-static fields a type declares, statics with their values. */
  static List<FieldRow> statics(ClrHeap p, ClrType t) {
    List<FieldRow> rows = new ArrayList<>();
    for (ClrField f : t.staticFields()) {
      if (f.kind() == ClrField.Kind.THREAD_STATIC) {
        rows.add(new FieldRow(f, f.offset(), "threadstatic", null, null));
        continue;
      }
      Value value;
      try {
        value = p.runtime().staticValue(t, f);
      } catch (TargetException e) {
        value = null;
      }
      rows.add(
          new FieldRow(
              f, f.offset(), "static", value, value == null ? null : ValueText.stringOf(p, value)));
    }
    return rows;
  }

  /** The file of the module that defines {@code t}, or null. */
  static String moduleFile(ClrHeap p, ClrType t) {
    for (ClrModule m : p.runtime().modules()) {
      if (m.address() == t.module()) {
        return m.name();
      }
    }
    return null;
  }
}
