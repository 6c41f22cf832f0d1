package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.analysis.ConcurrentCollections;
import java.util.ArrayList;
import java.util.List;

/** {@code dcd|dumpconcurrentdictionary ADDR}: a ConcurrentDictionary's keys and values. */
final class DumpConcurrentDictionary extends SosCommand {
  DumpConcurrentDictionary() {
    super(
        "dumpconcurrentdictionary",
        List.of("dcd"),
        "dumpconcurrentdictionary ADDR",
        "The entries of a ConcurrentDictionary<K,V>: each key and value (for references the"
            + " object's type, for strings their text)",
        SosArgs.Spec.one());
  }

  /** An entry. */
  record Entry(DumpConcurrentQueue.Item key, DumpConcurrentQueue.Item value) {}

  private static final RecordSchema<Entry> ENTRIES =
      new RecordSchema<Entry>(
              null,
              List.of(
                  Field.of("key", "KEY", 0, Unit.TEXT, (Entry e) -> ValueText.json(e.key().value()))
                      .cell(e -> ValueText.cell(e.key().value(), e.key().string())),
                  Field.data("keyString", Unit.TEXT, (Entry e) -> e.key().string()).optional(),
                  Field.of("keyType", "KEY TYPE", 0, Unit.TEXT, (Entry e) -> e.key().type())
                      .optional(),
                  Field.of(
                          "value",
                          "VALUE",
                          0,
                          Unit.TEXT,
                          (Entry e) -> ValueText.json(e.value().value()))
                      .cell(e -> ValueText.cell(e.value().value(), e.value().string())),
                  Field.data("valueString", Unit.TEXT, (Entry e) -> e.value().string()).optional(),
                  Field.of("valueType", "VALUE TYPE", 0, Unit.TEXT, (Entry e) -> e.value().type())
                      .optional()))
          .withPriority(List.of("key", "value"));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrHeap p = context.heap();
    List<Entry> entries = new ArrayList<>();
    ClrObject dictionary =
        DumpConcurrentQueue.ofType(
            p, args.address(0), "System.Collections.Concurrent.ConcurrentDictionary<");
    for (ConcurrentCollections.Entry e : ConcurrentCollections.dictionaryEntries(p, dictionary)) {
      if (e.key() == null || e.value() == null) {
        continue;
      }
      entries.add(
          new Entry(
              DumpConcurrentQueue.item(p, entries.size(), e.key()),
              DumpConcurrentQueue.item(p, entries.size(), e.value())));
    }
    context.show(
        Report.builder()
            .rows("entries", null, ENTRIES, entries)
            .note(entries.size() + " entr" + (entries.size() == 1 ? "y" : "ies") + ".")
            .build());
  }
}
