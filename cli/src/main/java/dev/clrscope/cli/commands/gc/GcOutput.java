package dev.clrscope.cli.commands.gc;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.Field.Shown;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Summarized;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.cli.render.Watched;
import dev.clrscope.monitor.gc.CondemnReasons;
import dev.clrscope.monitor.gc.GcRecord;
import dev.clrscope.monitor.gc.GcSummary;
import dev.clrscope.monitor.gc.GenerationSizes;
import dev.clrscope.monitor.gc.HeapHistory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The fields of a GC record and of the GC summary, declared once for every format: one row per GC
 * as it completes ({@code --per-heap} adds each heap's generations under it in a table, and a
 * {@code perHeap} member in JSON), then the summary.
 */
public final class GcOutput {
  private GcOutput() {}

  /**
   * The fields of a GC record, once for every format. JSON nests the generation sizes and condemn
   * reasons that CSV and the table spread over flat columns.
   */
  static RecordSchema<GcRecord> schema(boolean perHeap) {
    List<Field<GcRecord>> f = new ArrayList<>();
    f.add(Field.of("startUtc", "TIME", 12, Unit.TIME, GcRecord::startUtc));
    f.add(Field.of("gc", "GC#", 6, Unit.ID, GcRecord::number));
    f.add(Field.of("generation", "GEN", 3, Unit.ID, GcRecord::generation));
    f.add(Field.of("type", "TYPE", 13, Unit.TEXT, GcRecord::type));
    f.add(Field.of("reason", "REASON", 17, Unit.TEXT, GcRecord::reason));
    f.add(
        Field.<GcRecord>of(
                "clientSequenceNumber", "CSN", 10, Unit.ID, GcRecord::clientSequenceNumber)
            .cell(
                r ->
                    r.clientSequenceNumber() == 0 ? "-" : Long.toString(r.clientSequenceNumber())));
    f.add(Field.of("pauseMs", "PAUSE_MS", 9, Unit.MILLIS, GcRecord::pauseMillis));
    f.add(Field.of("suspendMs", "SUSP_MS", 8, Unit.MILLIS, GcRecord::suspendMillis));
    f.add(Field.data("durationMs", Unit.MILLIS, GcRecord::durationMillis));
    f.add(Field.of("heapSizeBeforeBytes", "BEFORE", 7, Unit.BYTES, GcRecord::heapSizeBefore));
    f.add(Field.of("heapSizeAfterBytes", "AFTER", 7, Unit.BYTES, GcRecord::heapSizeAfter));
    f.add(
        Field.<GcRecord>data("sizeAfterBytes", Unit.TEXT, r -> sizes(r.sizeAfter()))
            .only(Shown.JSON));
    f.add(afterSize("gen0", GenerationSizes::gen0));
    f.add(afterSize("gen1", GenerationSizes::gen1));
    f.add(afterSize("gen2", GenerationSizes::gen2));
    f.add(afterSize("loh", GenerationSizes::loh));
    f.add(afterSize("poh", GenerationSizes::poh));
    f.add(Field.of("promotedBytes", "PROMOTED", 8, Unit.BYTES, GcRecord::promoted));
    f.add(Field.of("fragmentationBytes", "FRAG", 7, Unit.BYTES, GcRecord::fragmentation));
    f.add(Field.of("pinnedObjects", "PINNED", 6, Unit.COUNT, GcRecord::pinnedObjects));
    f.add(Field.of("condemnedGeneration", "COND", 4, Unit.ID, GcRecord::condemnedGeneration));
    f.add(
        Field.<GcRecord>data("condemnReasons", Unit.TEXT, r -> condemn(r.condemnReasons()))
            .only(Shown.JSON));
    f.add(condemnColumn("initialGeneration", Unit.COUNT, CondemnReasons::initialGeneration));
    f.add(
        condemnColumn(
            "finalPerHeapGeneration", Unit.COUNT, CondemnReasons::finalPerHeapGeneration));
    f.add(
        condemnColumn(
            "budgetExceededGeneration", Unit.COUNT, CondemnReasons::budgetExceededGeneration));
    f.add(condemnColumn("condemnConditions", Unit.WORDS, CondemnReasons::conditions));
    f.add(Field.of("pauseMode", "MODE", 11, Unit.TEXT, GcRecord::pauseMode));
    f.add(Field.of("memoryPressurePercent", "MEM%", 4, Unit.COUNT, GcRecord::memoryPressure));
    f.add(
        Field.<GcRecord>of(
                "globalMechanisms", "MECHANISMS", 28, Unit.WORDS, GcRecord::globalMechanisms)
            .cell(
                r -> r.globalMechanisms().isEmpty() ? "-" : shortMechanisms(r.globalMechanisms())));
    f.add(Field.data("heaps", Unit.COUNT, r -> r.heaps().size()));
    if (perHeap) {
      f.add(Field.<GcRecord>data("perHeap", Unit.TEXT, GcOutput::perHeap).only(Shown.JSON));
    }
    f.add(
        Field.<GcRecord>of("condemnReasonsText", "CONDEMN REASONS", 0, Unit.TEXT, r -> null)
            .cell(r -> r.condemnReasons() == null ? "-" : r.condemnReasons().describe())
            .only(Shown.TABLE));
    return new RecordSchema<>("gc", f, TABLE_PRIORITY);
  }

  private static Field<GcRecord> afterSize(String gen, Function<GenerationSizes, Long> size) {
    return Field.<GcRecord>of(
            gen + "AfterBytes",
            gen.toUpperCase(Locale.ROOT),
            7,
            Unit.BYTES,
            r -> r.sizeAfter() == null ? null : size.apply(r.sizeAfter()))
        .only(Shown.FLAT);
  }

  private static Field<GcRecord> condemnColumn(
      String key, Unit unit, Function<CondemnReasons, ?> part) {
    return Field.<GcRecord>data(
            key, unit, r -> r.condemnReasons() == null ? null : part.apply(r.condemnReasons()))
        .only(Shown.CSV);
  }

  /**
   * The table's columns, most useful first: what a narrow terminal shows (a column left out here
   * would come last).
   */
  static final List<String> TABLE_PRIORITY =
      List.of(
          "gc",
          "generation",
          "reason",
          "pauseMs",
          "heapSizeBeforeBytes",
          "heapSizeAfterBytes",
          "startUtc",
          "type",
          "promotedBytes",
          "suspendMs",
          "fragmentationBytes",
          "pinnedObjects",
          "gen0AfterBytes",
          "gen1AfterBytes",
          "gen2AfterBytes",
          "lohAfterBytes",
          "pohAfterBytes",
          "pauseMode",
          "memoryPressurePercent",
          "globalMechanisms",
          "condemnedGeneration",
          "clientSequenceNumber",
          "condemnReasonsText");

  /**
   * The fields to print: every table column ({@code columns} "all"), the columns named in {@code
   * columns} (a comma-separated list of headings or keys), or by default as many as fit {@code
   * terminalColumns} (0: output that is not a terminal, which gets them all).
   *
   * @throws IllegalArgumentException if {@code columns} names no column
   */
  static RecordSchema<GcRecord> schema(boolean perHeap, String columns, int terminalColumns) {
    RecordSchema<GcRecord> all = schema(perHeap);
    if (columns != null && columns.strip().equalsIgnoreCase("all")) {
      return all;
    }
    if (columns != null) {
      return all.withTableColumns(List.of(columns.split(",", -1)));
    }
    return terminalColumns > 0 ? all.fittingTable(terminalColumns) : all;
  }

  /**
   * The records of these fields (see {@link #schema(boolean, String, int)}): a row per GC, with
   * each heap's history under it in a table with {@code perHeap}.
   *
   * @param fitted a table may leave out columns to fit the terminal (not when the user chose them)
   */
  static Renderer.Stream<GcRecord> stream(
      boolean perHeap, RecordSchema<GcRecord> fields, boolean fitted) {
    Renderer.Stream<GcRecord> live = Renderer.Stream.live(fields).allColumnsWith("--columns all");
    Renderer.Stream<GcRecord> stream = fitted ? live : live.unfitted();
    return perHeap ? stream.withDetails(GcOutput::heapLines) : stream;
  }

  /** The summary, its first line how long it watched and why it stopped ({@code null}: a file). */
  static Report summaryReport(GcSummary s, String stoppedBecause) {
    return Report.record(
        SUMMARY, new Summarized<>(s, new Watched(s.observedNanos(), stoppedBecause)));
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

  private static List<String> heapLines(GcRecord r) {
    List<String> lines = new ArrayList<>();
    if (r.heaps().isEmpty()) {
      lines.add("(no per-heap history)");
      return lines;
    }
    String row = "%4s  %-4s  %8s  %8s  %8s  %8s  %8s";
    lines.add(
        String.format(
            Locale.ROOT, row, "HEAP", "GEN", "BUDGET", "BEFORE", "AFTER", "SURVIVED", "FRAG"));
    for (HeapHistory h : r.heaps()) {
      for (int g = 0; g < 5; g++) {
        lines.add(
            String.format(
                Locale.ROOT,
                row,
                h.heapIndex(),
                HeapHistory.GENERATION_NAMES.get(g),
                Unit.bytes(h.budget().get(g)),
                Unit.bytes(h.sizeBefore().get(g)),
                Unit.bytes(h.sizeAfter().get(g)),
                Unit.bytes(h.survived().get(g)),
                Unit.bytes(h.fragmentationAfter().get(g))));
      }
      lines.add(
          "heap "
              + h.heapIndex()
              + ": "
              + (h.compactReason() == null ? "swept" : "compacted (" + h.compactReason() + ")")
              + (h.expandMechanism() == null ? "" : ", expanded (" + h.expandMechanism() + ")")
              + "; condemn reasons "
              + h.condemnReasons().describe());
    }
    return lines;
  }

  // ---- json

  /** The JSON object of one GC, without the per-heap history. */
  public static Map<String, Object> json(GcRecord r) {
    return schema(false).jsonObject(r);
  }

  private static List<Object> perHeap(GcRecord r) {
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
    return heaps;
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

  /** The summary's fields: {@code Label value} lines in a table, one object in JSON. */
  private static final RecordSchema<Summarized<GcSummary>> SUMMARY = summarySchema();

  private static RecordSchema<Summarized<GcSummary>> summarySchema() {
    List<Field<Summarized<GcSummary>>> f = new ArrayList<>();
    f.addAll(Watched.fields(Summarized::watched));
    f.add(Field.of("gcs", "GCs", 0, Unit.COUNT, (Summarized<GcSummary> x) -> x.s().gcs()));
    f.add(
        Field.of(
                "perGeneration",
                "Per generation",
                0,
                Unit.TEXT,
                (Summarized<GcSummary> x) -> x.s().perGeneration())
            .cell(x -> counts(x.s().perGeneration())));
    f.add(
        Field.of("perType", "Per type", 0, Unit.TEXT, (Summarized<GcSummary> x) -> x.s().perType())
            .cell(x -> counts(x.s().perType())));
    f.add(
        Field.of(
                "perReason",
                "Per reason",
                0,
                Unit.TEXT,
                (Summarized<GcSummary> x) -> x.s().perReason())
            .cell(x -> counts(x.s().perReason())));
    f.add(
        Field.of(
                "totalPauseMs",
                "Pause",
                0,
                Unit.MILLIS,
                (Summarized<GcSummary> x) -> x.s().totalPauseMillis())
            .cell(x -> pause(x.s())));
    f.add(
        Field.data(
            "meanPauseMs", Unit.MILLIS, (Summarized<GcSummary> x) -> x.s().meanPauseMillis()));
    f.add(
        Field.data("maxPauseMs", Unit.MILLIS, (Summarized<GcSummary> x) -> x.s().maxPauseMillis()));
    f.add(
        Field.data("p95PauseMs", Unit.MILLIS, (Summarized<GcSummary> x) -> x.s().p95PauseMillis()));
    f.add(
        Field.data("p99PauseMs", Unit.MILLIS, (Summarized<GcSummary> x) -> x.s().p99PauseMillis()));
    f.add(
        Field.of(
                "pausedPercent",
                "Time paused",
                0,
                Unit.PERCENT,
                (Summarized<GcSummary> x) -> x.s().pausedPercent())
            .cell(
                x ->
                    x.s().pausedPercent() == null
                        ? "-"
                        : String.format(Locale.ROOT, "%.3f %%", x.s().pausedPercent())));
    f.add(
        Field.of(
                "allocatedBytes",
                "Allocated",
                0,
                Unit.BYTES,
                (Summarized<GcSummary> x) -> x.s().allocatedBytes())
            .cell(x -> allocated(x.s())));
    f.add(
        Field.data(
            "allocationBytesPerSecond",
            Unit.DECIMAL,
            (Summarized<GcSummary> x) -> x.s().allocationBytesPerSecond()));
    f.add(
        Field.data(
            "unfinishedGcs", Unit.COUNT, (Summarized<GcSummary> x) -> x.s().unfinishedGcs()));
    f.add(
        Field.<Summarized<GcSummary>>of(
                "unfinished",
                "Unfinished GCs",
                0,
                Unit.COUNT,
                x -> x.s().unfinishedGcs() > 0 ? x.s().unfinishedGcs() : null)
            .only(Shown.TABLE)
            .optional());
    return new RecordSchema<>("summary", f);
  }

  private static String pause(GcSummary s) {
    return String.format(Locale.ROOT, "total %.3f ms", s.totalPauseMillis())
        + (s.meanPauseMillis() == null
            ? ""
            : String.format(
                Locale.ROOT,
                ", mean %.3f ms, max %.3f ms, p95 %.3f ms, p99 %.3f ms",
                s.meanPauseMillis(),
                s.maxPauseMillis(),
                s.p95PauseMillis(),
                s.p99PauseMillis()));
  }

  private static String allocated(GcSummary s) {
    return s.allocatedBytes() == null
        ? "- (needs two GCs)"
        : Unit.bytes(s.allocatedBytes())
            + " between the first and last GC"
            + (s.allocationBytesPerSecond() == null
                ? ""
                : ", " + Unit.bytes(Math.round(s.allocationBytesPerSecond())) + "/s");
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
