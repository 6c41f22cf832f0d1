package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrType;
import dev.clrscope.dac.TargetException;
import java.util.List;
import java.util.Locale;

/** {@code name2ee [MODULE] TYPE}: a type's method table by its name. */
final class Name2Ee extends SosCommand {
  Name2Ee() {
    super(
        "name2ee",
        List.of(),
        "name2ee [MODULE|*] TYPE",
        "A loaded type's method table by its full name (Namespace.Type, nested types with +),"
            + " for dumpmt, which shows its static fields' values",
        SosArgs.Spec.of(java.util.Set.of(), java.util.Set.of(), 1, 2));
  }

  /** The type found and where. */
  record Found(ClrType type, String file) {}

  private static final RecordSchema<Found> FOUND =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("file", "Module:", 0, Unit.TEXT, Found::file).optional(),
              Field.of(
                  "token",
                  "Token:",
                  0,
                  Unit.TEXT,
                  (Found f) -> String.format(Locale.ROOT, "0x%08x", f.type().token())),
              Field.of(
                  "methodTable",
                  "MethodTable:",
                  0,
                  Unit.ADDRESS,
                  (Found f) -> f.type().methodTable()),
              Field.of("type", "Name:", 0, Unit.TEXT, (Found f) -> f.type().name())));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrHeap p = context.heap();
    String module = args.positional().size() == 2 ? args.positional(0) : "*";
    String name = args.positional(args.positional().size() - 1);
    ClrType t = p.runtime().typeByName(name);
    String file = t == null ? null : DumpObj.moduleFile(p, t);
    if (t == null || !inModule(file, module)) {
      throw new TargetException(
          TargetException.Problem.NOT_AN_OBJECT,
          "no loaded type "
              + name
              + (module.equals("*") ? "" : " in " + module)
              + " (give its full name, nested types with +; dumpheap -stat lists the types with"
              + " instances)");
    }
    context.show(Report.record(FOUND, new Found(t, file)));
  }

  private static boolean inModule(String file, String module) {
    if (module.equals("*")) {
      return true;
    }
    if (file == null) {
      return false;
    }
    String f = file.substring(file.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
    String m = module.toLowerCase(Locale.ROOT);
    return f.equals(m) || f.equals(m + ".dll") || f.equals(m + ".exe");
  }
}
