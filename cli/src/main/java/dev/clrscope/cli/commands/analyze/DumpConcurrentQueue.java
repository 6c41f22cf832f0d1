package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrType;
import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.Value;
import dev.clrscope.dac.analysis.ConcurrentCollections;
import java.util.ArrayList;
import java.util.List;

/** {@code dcq|dumpconcurrentqueue ADDR}: a ConcurrentQueue's items, oldest first. */
final class DumpConcurrentQueue extends SosCommand {
  DumpConcurrentQueue() {
    super(
        "dumpconcurrentqueue",
        List.of("dcq"),
        "dumpconcurrentqueue ADDR",
        "The items of a ConcurrentQueue<T>, oldest first: each value (for references the object's"
            + " type, for strings their text)",
        SosArgs.Spec.one());
  }

  /** An item. */
  record Item(int index, Value value, String type, String string) {}

  static final RecordSchema<Item> ITEMS =
      new RecordSchema<Item>(
              null,
              List.of(
                  Field.of("index", "INDEX", 0, Unit.COUNT, Item::index),
                  Field.of("value", "VALUE", 0, Unit.TEXT, (Item i) -> ValueText.json(i.value()))
                      .cell(i -> ValueText.cell(i.value(), i.string())),
                  Field.data("string", Unit.TEXT, Item::string).optional(),
                  Field.of("type", "TYPE", 0, Unit.TEXT, Item::type).optional()))
          .withPriority(List.of("index", "value", "type"));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrHeap p = context.heap();
    List<Item> items = new ArrayList<>();
    ClrObject queue = ofType(p, args.address(0), "System.Collections.Concurrent.ConcurrentQueue<");
    for (Value v : ConcurrentCollections.queueItems(p, queue)) {
      items.add(item(p, items.size(), v));
    }
    context.show(
        Report.builder()
            .rows("items", null, ITEMS, items)
            .note(items.size() + " item" + (items.size() == 1 ? "" : "s") + ".")
            .build());
  }

  /**
   * The object at {@code address}, checked to be of a type whose name starts with {@code prefix}.
   *
   * @throws TargetException when it is no object or of another type
   */
  static ClrObject ofType(ClrHeap p, long address, String prefix) {
    ClrObject o = p.object(address);
    if (!o.type().name().startsWith(prefix)) {
      throw new TargetException(
          TargetException.Problem.NOT_AN_OBJECT,
          ValueText.hex(address)
              + " is not a "
              + prefix.substring(prefix.lastIndexOf('.') + 1, prefix.length() - 1)
              + ": it is a "
              + o.type().name());
    }
    return o;
  }

  static Item item(ClrHeap p, int index, Value v) {
    ClrType t = ValueText.typeOf(p, v);
    return new Item(
        index,
        v,
        t == null ? null : t.name(),
        t != null && t.isString() ? ValueText.stringOf(p, v) : null);
  }
}
