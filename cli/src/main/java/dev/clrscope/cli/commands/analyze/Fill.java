package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.analysis.HeapContents;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code fill}: live {@code List<T>}, {@code Dictionary<K,V>} and {@code HashSet<T>} whose backing
 * store has slots they do not use, and arrays of references with null elements, per type: how many,
 * their slots and those in use, the bytes of the unused ones, and the emptiest instance.
 */
final class Fill extends SosCommand {
  static final int DEFAULT_TOP = 20;

  Fill() {
    super(
        "fill",
        List.of(),
        "fill [-top N]",
        "Collections (List, Dictionary, HashSet: their backing store) and arrays of references"
            + " (null elements) by how empty they are, per type: wasted bytes, slots used of slots"
            + " there, the most wasteful instance; "
            + DEFAULT_TOP
            + " types without -top",
        SosArgs.Spec.of(Set.of(), Set.of("-top"), 0, 0));
  }

  /**
   * One type's instances with unused slots.
   *
   * @param worst the instance that wastes the most
   */
  record TypeFill(
      String type,
      long count,
      long capacity,
      long used,
      long wastedBytes,
      HeapContents.Fill worst) {
    double usedPercent() {
      return capacity == 0 ? 100 : 100.0 * used / capacity;
    }
  }

  private static final RecordSchema<TypeFill> ROW =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("count", "COUNT", 0, Unit.COUNT, TypeFill::count),
              Field.of("wastedBytes", "WASTED", 0, Unit.COUNT, TypeFill::wastedBytes),
              Field.of("capacity", "SLOTS", 0, Unit.COUNT, TypeFill::capacity),
              Field.of("used", "USED", 0, Unit.COUNT, TypeFill::used),
              Field.of(
                      "usedPercent",
                      "USED %",
                      0,
                      Unit.TEXT,
                      (TypeFill t) -> String.format(Locale.ROOT, "%.1f", t.usedPercent()))
                  .only(Field.Shown.TABLE),
              Field.of("worst", "WORST", 0, Unit.ADDRESS, (TypeFill t) -> t.worst().address()),
              Field.of(
                      "worstCapacity",
                      "WORST SLOTS",
                      0,
                      Unit.COUNT,
                      (TypeFill t) -> t.worst().capacity())
                  .only(Field.Shown.DATA),
              Field.of("worstUsed", "WORST USED", 0, Unit.COUNT, (TypeFill t) -> t.worst().used())
                  .only(Field.Shown.DATA),
              Field.of("type", "TYPE", 0, Unit.TEXT, TypeFill::type)));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    int top = args.countOption("-top", 1, DEFAULT_TOP);
    List<HeapContents.Fill> all = HeapContents.fill(context.heap(), context.live());
    Map<String, List<HeapContents.Fill>> byType = new LinkedHashMap<>();
    for (HeapContents.Fill f : all) {
      byType.computeIfAbsent(f.type(), k -> new ArrayList<>()).add(f);
    }
    List<TypeFill> rows = new ArrayList<>();
    byType.forEach(
        (type, fills) -> {
          long capacity = 0;
          long used = 0;
          long wasted = 0;
          HeapContents.Fill worst = fills.get(0);
          for (HeapContents.Fill f : fills) {
            capacity += f.capacity();
            used += f.used();
            wasted += f.wastedBytes();
            if (f.wastedBytes() > worst.wastedBytes()) {
              worst = f;
            }
          }
          rows.add(new TypeFill(type, fills.size(), capacity, used, wasted, worst));
        });
    rows.sort(
        Comparator.comparingLong(TypeFill::wastedBytes).reversed().thenComparing(TypeFill::type));
    long wasted = rows.stream().mapToLong(TypeFill::wastedBytes).sum();
    context.show(
        Report.builder()
            .rows("types", null, ROW, rows.stream().limit(top).toList())
            .note(
                Unit.count(wasted)
                    + " bytes in unused slots of "
                    + Unit.count(rows.size())
                    + " types (a list's array counts under the list and again as an array).")
            .build());
  }
}
