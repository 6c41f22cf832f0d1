package dev.clrscope.cli.commands.alloc;

import dev.clrscope.cli.options.OutputFormat;
import dev.clrscope.cli.render.ByteSize;
import dev.clrscope.cli.render.Column;
import dev.clrscope.cli.render.JsonText;
import dev.clrscope.cli.render.Table;
import dev.clrscope.cli.render.TableRenderer;
import dev.clrscope.monitor.alloc.AllocationSummary;
import dev.clrscope.monitor.alloc.StackAllocations;
import dev.clrscope.monitor.alloc.TypeAllocations;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** How {@code alloc} prints its summary: a table and stacks, one JSON document, or CSV rows. */
final class AllocOutput {
  private final PrintStream out;
  private final OutputFormat format;

  AllocOutput(PrintStream out, OutputFormat format) {
    this.out = out;
    this.format = format;
  }

  void print(AllocationSummary s) {
    Table types =
        new Table(
            List.of(
                Column.text("type", "TYPE"),
                Column.text("heap", "HEAP"),
                Column.number("ticks", "TICKS"),
                Column.number("sampledBytes", "SAMPLED"),
                Column.number("estimatedBytes", "EST. BYTES"),
                Column.number("estimatedPercent", "EST. %")));
    boolean table = format == OutputFormat.table;
    for (TypeAllocations t : s.types()) {
      types.add(
          t.type(),
          heap(t.large()),
          t.ticks(),
          table ? ByteSize.of(t.sampledBytes()) : t.sampledBytes(),
          table ? ByteSize.of(t.estimatedBytes()) : t.estimatedBytes(),
          percent(t.estimatedBytes(), s.estimatedBytes()));
    }
    TableRenderer renderer = new TableRenderer(out);
    switch (format) {
      case csv -> renderer.list(types, format);
      case json -> {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("ticks", s.ticks());
        doc.put("estimatedBytes", s.estimatedBytes());
        doc.put("ticksWithoutStack", s.ticksWithoutStack());
        doc.put("types", types.objects());
        doc.put(
            "stacks",
            s.stacks().stream()
                .map(
                    st -> {
                      Map<String, Object> m = new LinkedHashMap<>();
                      m.put("heap", heap(st.large()));
                      m.put("topType", st.topType());
                      m.put("ticks", st.ticks());
                      m.put("estimatedBytes", st.estimatedBytes());
                      m.put("frames", st.frames());
                      return m;
                    })
                .toList());
        out.println(JsonText.of(doc));
        out.flush();
      }
      default -> {
        out.println(
            String.format(
                Locale.ROOT,
                "%,d allocation ticks, standing for about %s allocated%s",
                s.ticks(),
                ByteSize.of(s.estimatedBytes()),
                s.ticksWithoutStack() > 0
                    ? String.format(Locale.ROOT, " (%,d without a stack)", s.ticksWithoutStack())
                    : ""));
        out.println();
        renderer.list(types, format);
        for (boolean large : new boolean[] {false, true}) {
          List<StackAllocations> stacks =
              s.stacks().stream().filter(st -> st.large() == large).toList();
          if (stacks.isEmpty()) {
            continue;
          }
          out.println();
          out.println(
              "Top allocating stacks, " + (large ? "large object heap" : "small objects") + ":");
          int rank = 1;
          for (StackAllocations st : stacks) {
            out.println(
                String.format(
                    Locale.ROOT,
                    "#%d  %s  %,d ticks  %s  mostly %s",
                    rank++,
                    ByteSize.of(st.estimatedBytes()),
                    st.ticks(),
                    percent(st.estimatedBytes(), s.estimatedBytes()) + " %",
                    st.topType()));
            for (String f : st.frames()) {
              out.println("      " + f);
            }
          }
        }
        out.flush();
      }
    }
  }

  private static String heap(boolean large) {
    return large ? "large" : "small";
  }

  private static BigDecimal percent(long part, long whole) {
    return whole == 0
        ? BigDecimal.ZERO.setScale(2)
        : BigDecimal.valueOf(part * 100.0 / whole).setScale(2, RoundingMode.HALF_UP);
  }
}
