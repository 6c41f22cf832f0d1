package dev.clrscope.cli.commands.gc;

import dev.clrscope.cli.options.OutputFormat;
import dev.clrscope.cli.render.ByteSize;
import dev.clrscope.cli.render.JsonText;
import dev.clrscope.monitor.gc.CondemnReasons;
import dev.clrscope.monitor.gc.GcRecord;
import dev.clrscope.monitor.gc.GcSummary;
import dev.clrscope.monitor.gc.GenerationSizes;
import dev.clrscope.monitor.gc.HeapHistory;
import java.io.PrintStream;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints GC records as they complete, and the summary at the end, in the three formats.
 *
 * <ul>
 *   <li>table: a header, then one fixed-width row per GC, so rows line up as they arrive; sizes in
 *       binary units; {@code -v} adds each heap's generations under the row; the summary follows as
 *       {@code Label value} lines.
 *   <li>json: JSON Lines, one object per GC ({@code "kind":"gc"}), then one summary object ({@code
 *       "kind":"summary"}); sizes in bytes, times in milliseconds.
 *   <li>csv: a header of keys, one row per GC, sizes in bytes; the summary goes to stderr so stdout
 *       stays one CSV table.
 * </ul>
 */
public final class GcOutput {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT).withZone(ZoneId.systemDefault());

  /** Table columns: label, width, right-aligned. The last one is free text. */
  private record Col(String label, int width, boolean right) {}

  private static final List<Col> COLUMNS =
      List.of(
          new Col("TIME", 12, false),
          new Col("GC#", 6, true),
          new Col("GEN", 3, true),
          new Col("TYPE", 13, false),
          new Col("REASON", 17, false),
          new Col("CSN", 10, true),
          new Col("PAUSE_MS", 9, true),
          new Col("SUSP_MS", 8, true),
          new Col("BEFORE", 7, true),
          new Col("AFTER", 7, true),
          new Col("GEN0", 7, true),
          new Col("GEN1", 7, true),
          new Col("GEN2", 7, true),
          new Col("LOH", 7, true),
          new Col("POH", 7, true),
          new Col("PROMOTED", 8, true),
          new Col("FRAG", 7, true),
          new Col("PINNED", 6, true),
          new Col("COND", 4, true),
          new Col("MODE", 11, false),
          new Col("MEM%", 4, true),
          new Col("MECHANISMS", 28, false),
          new Col("CONDEMN REASONS", 0, false));

  private static final List<String> CSV_KEYS =
      List.of(
          "startUtc",
          "gc",
          "generation",
          "type",
          "reason",
          "clientSequenceNumber",
          "pauseMs",
          "suspendMs",
          "durationMs",
          "heapSizeBeforeBytes",
          "heapSizeAfterBytes",
          "gen0AfterBytes",
          "gen1AfterBytes",
          "gen2AfterBytes",
          "lohAfterBytes",
          "pohAfterBytes",
          "promotedBytes",
          "fragmentationBytes",
          "pinnedObjects",
          "condemnedGeneration",
          "initialGeneration",
          "finalPerHeapGeneration",
          "budgetExceededGeneration",
          "condemnConditions",
          "pauseMode",
          "memoryPressurePercent",
          "globalMechanisms",
          "heaps");

  private final PrintStream out;
  private final PrintStream err;
  private final OutputFormat format;
  private final boolean perHeap;
  private boolean headerPrinted;

  /**
   * An output.
   *
   * @param out stdout
   * @param err stderr, for the CSV summary
   * @param perHeap print each heap's history ({@code -v})
   */
  public GcOutput(PrintStream out, PrintStream err, OutputFormat format, boolean perHeap) {
    this.out = out;
    this.err = err;
    this.format = format;
    this.perHeap = perHeap;
  }

  /** Prints the header now, so a watcher sees the columns before the first GC. */
  public void header() {
    if (headerPrinted) {
      return;
    }
    headerPrinted = true;
    switch (format) {
      case table -> {
        List<String> labels = new ArrayList<>();
        for (Col c : COLUMNS) {
          labels.add(c.label());
        }
        out.println(line(labels));
      }
      case csv -> out.println(String.join(",", CSV_KEYS));
      default -> {}
    }
    out.flush();
  }

  /** Prints one GC. */
  public void gc(GcRecord r) {
    header();
    switch (format) {
      case json -> out.println(JsonText.of(json(r, perHeap)));
      case csv -> out.println(csvRow(r));
      default -> {
        out.println(line(tableCells(r)));
        if (perHeap) {
          heapTable(r);
        }
      }
    }
    out.flush();
  }

  /** Prints the summary: its lines (table), an object (json), or lines on stderr (csv). */
  public void summary(GcSummary s, String stoppedBecause) {
    header();
    switch (format) {
      case json -> {
        Map<String, Object> o = summaryObject(s);
        o.put("stoppedBecause", stoppedBecause);
        out.println(JsonText.of(o));
        out.flush();
      }
      case csv -> summaryLines(err, s, stoppedBecause);
      default -> {
        out.println();
        summaryLines(out, s, stoppedBecause);
      }
    }
  }

  // ---- table

  private static List<String> tableCells(GcRecord r) {
    GenerationSizes after = r.sizeAfter();
    CondemnReasons cr = r.condemnReasons();
    return List.of(
        TIME.format(r.startUtc()),
        Long.toString(r.number()),
        Integer.toString(r.generation()),
        r.type(),
        r.reason(),
        r.clientSequenceNumber() == 0 ? "-" : Long.toString(r.clientSequenceNumber()),
        ms(r.pauseMillis()),
        ms(r.suspendMillis()),
        ByteSize.of(r.heapSizeBefore()),
        ByteSize.of(r.heapSizeAfter()),
        after == null ? "-" : ByteSize.of(after.gen0()),
        after == null ? "-" : ByteSize.of(after.gen1()),
        after == null ? "-" : ByteSize.of(after.gen2()),
        after == null ? "-" : ByteSize.of(after.loh()),
        after == null ? "-" : ByteSize.of(after.poh()),
        ByteSize.of(r.promoted()),
        ByteSize.of(r.fragmentation()),
        r.pinnedObjects() == null ? "-" : Long.toString(r.pinnedObjects()),
        r.condemnedGeneration() == null ? "-" : Integer.toString(r.condemnedGeneration()),
        r.pauseMode() == null ? "-" : r.pauseMode(),
        r.memoryPressure() == null ? "-" : Long.toString(r.memoryPressure()),
        r.globalMechanisms().isEmpty() ? "-" : shortMechanisms(r.globalMechanisms()),
        cr == null ? "-" : cr.describe());
  }

  /** Short names, so all six fit the column: Conc, Compact, Promote, Demote, Cards, Elev. */
  private static String shortMechanisms(List<String> names) {
    List<String> shorter = new ArrayList<>();
    for (String n : names) {
      shorter.add(
          switch (n) {
            case "Concurrent" -> "Conc";
            case "Compaction" -> "Compact";
            case "Promotion" -> "Promote";
            case "Demotion" -> "Demote";
            case "CardBundles" -> "Cards";
            case "Elevation" -> "Elev";
            default -> n;
          });
    }
    return String.join(",", shorter);
  }

  private static String line(List<String> cells) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      Col c = COLUMNS.get(i);
      String v = cells.get(i);
      if (i > 0) {
        sb.append("  ");
      }
      int pad = Math.max(0, c.width() - v.length());
      if (c.right()) {
        sb.append(" ".repeat(pad)).append(v);
      } else {
        sb.append(v);
        if (i < cells.size() - 1) {
          sb.append(" ".repeat(pad));
        }
      }
    }
    return sb.toString().stripTrailing();
  }

  private void heapTable(GcRecord r) {
    if (r.heaps().isEmpty()) {
      out.println("    (no per-heap history)");
      return;
    }
    out.println(
        String.format(
            Locale.ROOT,
            "    %4s  %-4s  %8s  %8s  %8s  %8s  %8s",
            "HEAP",
            "GEN",
            "BUDGET",
            "BEFORE",
            "AFTER",
            "SURVIVED",
            "FRAG"));
    for (HeapHistory h : r.heaps()) {
      for (int g = 0; g < 5; g++) {
        out.println(
            String.format(
                Locale.ROOT,
                "    %4d  %-4s  %8s  %8s  %8s  %8s  %8s",
                h.heapIndex(),
                HeapHistory.GENERATION_NAMES.get(g),
                ByteSize.of(h.budget().get(g)),
                ByteSize.of(h.sizeBefore().get(g)),
                ByteSize.of(h.sizeAfter().get(g)),
                ByteSize.of(h.survived().get(g)),
                ByteSize.of(h.fragmentationAfter().get(g))));
      }
      out.println(
          "    heap "
              + h.heapIndex()
              + ": "
              + (h.compactReason() == null ? "swept" : "compacted (" + h.compactReason() + ")")
              + (h.expandMechanism() == null ? "" : ", expanded (" + h.expandMechanism() + ")")
              + "; condemn reasons "
              + h.condemnReasons().describe());
    }
  }

  private static String ms(Double v) {
    return v == null ? "-" : String.format(Locale.ROOT, "%.3f", v);
  }

  // ---- json

  /** The JSON object of one GC. */
  public static Map<String, Object> json(GcRecord r, boolean perHeap) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("kind", "gc");
    o.put("startUtc", r.startUtc().toString());
    o.put("gc", r.number());
    o.put("generation", r.generation());
    o.put("type", r.type());
    o.put("reason", r.reason());
    o.put("clientSequenceNumber", r.clientSequenceNumber());
    o.put("pauseMs", r.pauseMillis());
    o.put("suspendMs", r.suspendMillis());
    o.put("durationMs", r.durationMillis());
    o.put("heapSizeBeforeBytes", r.heapSizeBefore());
    o.put("heapSizeAfterBytes", r.heapSizeAfter());
    o.put("sizeAfterBytes", sizes(r.sizeAfter()));
    o.put("promotedBytes", r.promoted());
    o.put("fragmentationBytes", r.fragmentation());
    o.put("pinnedObjects", r.pinnedObjects());
    o.put("condemnedGeneration", r.condemnedGeneration());
    o.put("condemnReasons", condemn(r.condemnReasons()));
    o.put("pauseMode", r.pauseMode());
    o.put("memoryPressurePercent", r.memoryPressure());
    o.put("globalMechanisms", r.globalMechanisms());
    o.put("heaps", r.heaps().size());
    if (perHeap) {
      List<Object> heaps = new ArrayList<>();
      for (HeapHistory h : r.heaps()) {
        Map<String, Object> ho = new LinkedHashMap<>();
        ho.put("heap", h.heapIndex());
        ho.put("budgetBytes", sizes(h.budget()));
        ho.put("sizeBeforeBytes", sizes(h.sizeBefore()));
        ho.put("sizeAfterBytes", sizes(h.sizeAfter()));
        ho.put("survivedBytes", sizes(h.survived()));
        ho.put("fragmentationBytes", sizes(h.fragmentationAfter()));
        ho.put("compactReason", h.compactReason());
        ho.put("expandMechanism", h.expandMechanism());
        ho.put("condemnReasons", condemn(h.condemnReasons()));
        heaps.add(ho);
      }
      o.put("perHeap", heaps);
    }
    return o;
  }

  private static Map<String, Object> sizes(GenerationSizes s) {
    if (s == null) {
      return null;
    }
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("gen0", s.gen0());
    o.put("gen1", s.gen1());
    o.put("gen2", s.gen2());
    o.put("loh", s.loh());
    o.put("poh", s.poh());
    return o;
  }

  private static Map<String, Object> condemn(CondemnReasons c) {
    if (c == null) {
      return null;
    }
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("initialGeneration", c.initialGeneration());
    o.put("finalPerHeapGeneration", c.finalPerHeapGeneration());
    o.put("budgetExceededGeneration", c.budgetExceededGeneration());
    o.put("timeTuningGeneration", c.timeTuningGeneration());
    o.put("conditions", c.conditions());
    return o;
  }

  /** The JSON object of a summary. */
  public static Map<String, Object> summaryObject(GcSummary s) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("kind", "summary");
    o.put("gcs", s.gcs());
    o.put("observedSeconds", s.observedNanos() / 1e9);
    o.put("perGeneration", s.perGeneration());
    o.put("perType", s.perType());
    o.put("perReason", s.perReason());
    o.put("totalPauseMs", s.totalPauseMillis());
    o.put("meanPauseMs", s.meanPauseMillis());
    o.put("maxPauseMs", s.maxPauseMillis());
    o.put("p95PauseMs", s.p95PauseMillis());
    o.put("p99PauseMs", s.p99PauseMillis());
    o.put("pausedPercent", s.pausedPercent());
    o.put("allocatedBytes", s.allocatedBytes());
    o.put("allocationBytesPerSecond", s.allocationBytesPerSecond());
    o.put("unfinishedGcs", s.unfinishedGcs());
    return o;
  }

  // ---- csv

  private static String csvRow(GcRecord r) {
    GenerationSizes a = r.sizeAfter();
    CondemnReasons c = r.condemnReasons();
    List<Object> v = new ArrayList<>();
    v.add(r.startUtc());
    v.add(r.number());
    v.add(r.generation());
    v.add(r.type());
    v.add(r.reason());
    v.add(r.clientSequenceNumber());
    v.add(r.pauseMillis());
    v.add(r.suspendMillis());
    v.add(r.durationMillis());
    v.add(r.heapSizeBefore());
    v.add(r.heapSizeAfter());
    v.add(a == null ? null : a.gen0());
    v.add(a == null ? null : a.gen1());
    v.add(a == null ? null : a.gen2());
    v.add(a == null ? null : a.loh());
    v.add(a == null ? null : a.poh());
    v.add(r.promoted());
    v.add(r.fragmentation());
    v.add(r.pinnedObjects());
    v.add(r.condemnedGeneration());
    v.add(c == null ? null : c.initialGeneration());
    v.add(c == null ? null : c.finalPerHeapGeneration());
    v.add(c == null ? null : c.budgetExceededGeneration());
    v.add(c == null ? null : String.join(" ", c.conditions()));
    v.add(r.pauseMode());
    v.add(r.memoryPressure());
    v.add(String.join(" ", r.globalMechanisms()));
    v.add(r.heaps().size());
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < v.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      Object x = v.get(i);
      sb.append(x == null ? "" : x.toString());
    }
    return sb.toString();
  }

  // ---- summary as text

  private static void summaryLines(PrintStream p, GcSummary s, String stoppedBecause) {
    List<String[]> rows = new ArrayList<>();
    rows.add(
        new String[] {
          "Watched",
          String.format(Locale.ROOT, "%.1f s", s.observedNanos() / 1e9)
              + (stoppedBecause == null ? "" : " (stopped: " + stoppedBecause + ")")
        });
    rows.add(new String[] {"GCs", Long.toString(s.gcs())});
    rows.add(new String[] {"Per generation", counts(s.perGeneration())});
    rows.add(new String[] {"Per type", counts(s.perType())});
    rows.add(new String[] {"Per reason", counts(s.perReason())});
    rows.add(
        new String[] {
          "Pause",
          String.format(Locale.ROOT, "total %.3f ms", s.totalPauseMillis())
              + (s.meanPauseMillis() == null
                  ? ""
                  : String.format(
                      Locale.ROOT,
                      ", mean %.3f ms, max %.3f ms, p95 %.3f ms, p99 %.3f ms",
                      s.meanPauseMillis(),
                      s.maxPauseMillis(),
                      s.p95PauseMillis(),
                      s.p99PauseMillis()))
        });
    rows.add(
        new String[] {
          "Time paused",
          s.pausedPercent() == null ? "-" : String.format(Locale.ROOT, "%.3f %%", s.pausedPercent())
        });
    rows.add(
        new String[] {
          "Allocated",
          s.allocatedBytes() == null
              ? "- (needs two GCs)"
              : ByteSize.of(s.allocatedBytes())
                  + " between the first and last GC"
                  + (s.allocationBytesPerSecond() == null
                      ? ""
                      : ", " + ByteSize.of(Math.round(s.allocationBytesPerSecond())) + "/s")
        });
    if (s.unfinishedGcs() > 0) {
      rows.add(new String[] {"Unfinished GCs", Long.toString(s.unfinishedGcs())});
    }
    int width = 0;
    for (String[] r : rows) {
      width = Math.max(width, r[0].length());
    }
    for (String[] r : rows) {
      p.println(r[0] + " ".repeat(width - r[0].length()) + "  " + r[1]);
    }
    p.flush();
  }

  private static String counts(Map<String, Long> m) {
    if (m.isEmpty()) {
      return "-";
    }
    List<String> parts = new ArrayList<>();
    m.forEach((k, v) -> parts.add(k + " " + v));
    return String.join(", ", parts);
  }
}
