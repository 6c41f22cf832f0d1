package dev.clrscope.cli.commands.triage;

import dev.clrscope.cli.commands.heap.DumpHeapDiffCommand;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.FrameFields;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.cli.render.VisibleText;
import dev.clrscope.dac.HeapProblems;
import dev.clrscope.heapwalk.WalkProblems;
import dev.clrscope.symbols.Frame;
import dev.clrscope.triage.Check;
import dev.clrscope.triage.Evidence;
import dev.clrscope.triage.Finding;
import dev.clrscope.triage.TriageResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Triage's result as a report, declared once for every format: the head (target, runtime, findings
 * by severity), the findings most severe first (JSON {@code findings}: kind, severity, title,
 * evidence, next; a table draws each finding's sentence, evidence and next commands under its row,
 * wrapped to 80 columns), what grew (a comparison), and what was checked.
 */
final class TriageOutput {
  private TriageOutput() {}

  /** The width a table's lines under a row are wrapped to, their indent included. */
  static final int WIDTH = 80;

  /** Frames a table shows of a thread or an exception (JSON and HTML show them all). */
  static final int TABLE_FRAMES = 12;

  /**
   * The head of the report.
   *
   * @param heapProblems where the heap's walk had to stop, or null when the heap was not read
   */
  record Head(TriageResult result, String runtime, WalkProblems heapProblems) {
    /** The problems of a heap not read whole; null for a whole one. */
    WalkProblems notWhole() {
      return heapProblems != null && heapProblems.heapNotWhole() ? heapProblems : null;
    }
  }

  private static final RecordSchema<Head> HEAD =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("target", "Target", 0, Unit.TEXT, (Head h) -> h.result().target()),
              Field.of("runtime", "Runtime", 0, Unit.TEXT, Head::runtime).optional(),
              Field.of("earlier", "Compared with", 0, Unit.TEXT, (Head h) -> h.result().earlier())
                  .optional(),
              Field.of(
                      "reachableBytes",
                      "Heap",
                      0,
                      Unit.BYTES,
                      (Head h) ->
                          h.result().reachableBytes() < 0 ? null : h.result().reachableBytes())
                  .cell(
                      h ->
                          String.format(
                              Locale.ROOT,
                              "%,d bytes reachable from roots",
                              h.result().reachableBytes()))
                  .optional(),
              Field.of(
                      "findingCount",
                      "Findings",
                      0,
                      Unit.COUNT,
                      (Head h) -> (long) h.result().findings().size())
                  .cell(
                      h ->
                          h.result().findings().isEmpty()
                              ? "none"
                              : h.result().findings().size() + ": " + h.result().tally()),
              // As dump-heap's report says a heap not read whole.
              Field.<Head>data(
                      "problemCounts",
                      Unit.TEXT,
                      h ->
                          h.notWhole() == null
                              ? null
                              : HeapProblems.of(h.notWhole()).countsByName())
                  .optional(),
              Field.<Head>data(
                      "bytesNotWalked",
                      Unit.BYTES,
                      h -> h.notWhole() == null ? null : h.notWhole().bytesNotWalked())
                  .optional()));

  private static final RecordSchema<Finding> FINDINGS =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("severity", "SEVERITY", 8, Unit.TEXT, (Finding f) -> f.severity().label()),
              Field.of("kind", "FINDING", 0, Unit.TEXT, Finding::kind),
              Field.<Finding>data("title", Unit.TEXT, Finding::title),
              Field.of("evidence", "evidence", 0, Unit.TEXT, (Finding f) -> evidence(f.evidence()))
                  .only(Field.Shown.JSON),
              Field.of("next", "next", 0, Unit.WORDS, Finding::next).only(Field.Shown.JSON),
              Field.of("next", "next", 0, Unit.TEXT, (Finding f) -> String.join(" ; ", f.next()))
                  .only(Field.Shown.CSV)));

  private static final RecordSchema<Check> CHECKS =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("area", "CHECKED", 0, Unit.TEXT, Check::area),
              Field.<Check>data("result", Unit.TEXT, Check::result)));

  private static final RecordSchema<Evidence.ThreadEntry> THREAD =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("osId", "OSID", 0, Unit.ID, Evidence.ThreadEntry::osId),
              Field.of("managedId", "ID", 0, Unit.ID, Evidence.ThreadEntry::managedId),
              Field.of("name", "NAME", 0, Unit.TEXT, Evidence.ThreadEntry::name).optional(),
              Field.of("role", "ROLE", 0, Unit.TEXT, Evidence.ThreadEntry::role).optional(),
              Field.nested("frames", FrameFields.FRAME, Evidence.ThreadEntry::frames)));

  private static final RecordSchema<Evidence.ObjectEntry> OBJECT =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("address", "ADDRESS", 0, Unit.ADDRESS, Evidence.ObjectEntry::address),
              Field.of("type", "TYPE", 0, Unit.TEXT, Evidence.ObjectEntry::type),
              Field.of("size", "SIZE", 0, Unit.BYTES, Evidence.ObjectEntry::size),
              Field.of("retained", "RETAINED", 0, Unit.BYTES, Evidence.ObjectEntry::retained)
                  .optional(),
              Field.of("role", "ROLE", 0, Unit.TEXT, Evidence.ObjectEntry::role).optional()));

  private static final RecordSchema<Evidence.ExceptionEntry> EXCEPTION =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("depth", "DEPTH", 0, Unit.COUNT, Evidence.ExceptionEntry::depth),
              Field.of("address", "ADDRESS", 0, Unit.ADDRESS, Evidence.ExceptionEntry::address),
              Field.of("type", "TYPE", 0, Unit.TEXT, Evidence.ExceptionEntry::type),
              Field.of("message", "MESSAGE", 0, Unit.TEXT, Evidence.ExceptionEntry::message)
                  .optional(),
              Field.of("hresult", "HRESULT", 0, Unit.TEXT, Evidence.ExceptionEntry::hresult),
              Field.nested("frames", FrameFields.FRAME, Evidence.ExceptionEntry::frames)));

  /** The evidence as JSON: threads, objects, exceptions, and the facts as one object. */
  static Map<String, Object> evidence(Evidence e) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("threads", THREAD.jsonObjects(e.threads()));
    o.put("objects", OBJECT.jsonObjects(e.objects()));
    o.put("exceptions", EXCEPTION.jsonObjects(e.exceptions()));
    Map<String, Object> facts = new LinkedHashMap<>();
    e.facts().forEach(f -> facts.put(f.name(), f.value()));
    o.put("facts", facts);
    return o;
  }

  /** The report of a result whose heap, if read, was read whole. */
  static Report report(TriageResult r, String runtime) {
    return report(r, runtime, null);
  }

  /**
   * The report of a result.
   *
   * @param heapProblems where the heap's walk had to stop, or null when no heap was read
   */
  static Report report(TriageResult r, String runtime, WalkProblems heapProblems) {
    Report.Builder b = Report.builder().values(HEAD, new Head(r, runtime, heapProblems));
    b.rows("findings", null, FINDINGS, r.findings(), TriageOutput::lines).primary();
    if (r.findings().isEmpty()) {
      b.note("Nothing found. What was checked:");
    }
    if (r.earlier() != null) {
      b.rows(
          "grown",
          "What grew since " + r.earlier() + ", by retained size:",
          DumpHeapDiffCommand.SCHEMA,
          r.grown());
    }
    b.rows("checked", null, CHECKS, r.checks(), c -> wrap(c.result(), WIDTH - 4, ""));
    return b.build();
  }

  /** The lines a table draws under a finding's row: its sentence, evidence and next commands. */
  static List<String> lines(Finding f) {
    int width = WIDTH - 4;
    List<String> out = new ArrayList<>(wrap(f.title(), width, ""));
    Evidence e = f.evidence();
    List<Frame> previous = null;
    for (Evidence.ThreadEntry t : e.threads()) {
      boolean same = previous != null && previous.equals(t.frames()) && !t.frames().isEmpty();
      out.addAll(
          wrap(
              "thread "
                  + t.label()
                  + (t.role() == null ? "" : ": " + t.role())
                  + (same ? " (the same stack)" : ""),
              width,
              "    "));
      if (!same) {
        frames(t.frames(), width, out);
      }
      previous = t.frames();
    }
    List<Evidence.ObjectEntry> objects = e.objects();
    for (int i = 0; i < objects.size(); i++) {
      Evidence.ObjectEntry o = objects.get(i);
      // Objects of one type in one role (the tasks four threads wait for) are one entry.
      List<String> same = new ArrayList<>();
      while (i + 1 < objects.size()
          && objects.get(i + 1).type().equals(o.type())
          && java.util.Objects.equals(objects.get(i + 1).role(), o.role())) {
        same.add("0x" + Long.toHexString(objects.get(++i).address()));
      }
      if (!same.isEmpty()) {
        out.addAll(
            wrap(
                (same.size() == 1 ? "object " : "objects ")
                    + "0x"
                    + Long.toHexString(o.address())
                    + " and "
                    + String.join(", ", same)
                    + ": "
                    + o.type()
                    + (o.role() == null ? "" : ", " + o.role()),
                width,
                "    "));
        continue;
      }
      out.addAll(
          wrap(
              "object 0x"
                  + Long.toHexString(o.address())
                  + " "
                  + o.type()
                  + ", "
                  + String.format(Locale.ROOT, "%,d bytes", o.size())
                  + (o.retained() == null
                      ? ""
                      : String.format(Locale.ROOT, ", retains %,d", o.retained()))
                  + (o.role() == null ? "" : ": " + o.role()),
              width,
              "    "));
    }
    for (Evidence.ExceptionEntry x : e.exceptions()) {
      out.addAll(
          wrap(
              (x.depth() == 0 ? "exception " : "inner exception ")
                  + "0x"
                  + Long.toHexString(x.address())
                  + " "
                  + x.type()
                  + (x.message() == null ? "" : ": " + x.message()),
              width,
              "    "));
      frames(x.frames(), width, out);
    }
    for (Evidence.Fact fact : e.facts()) {
      Object v = fact.value();
      String text =
          v instanceof Long || v instanceof Integer
              ? String.format(Locale.ROOT, "%,d", ((Number) v).longValue())
              : String.valueOf(v);
      out.addAll(wrap(fact.name() + ": " + text, width, "    "));
    }
    for (String n : f.next()) {
      out.addAll(command("next: " + n, width, "      "));
    }
    return out;
  }

  /**
   * A command in lines a shell takes as they are pasted: broken only at spaces outside quotes, each
   * line but the last ending in a backslash.
   */
  static List<String> command(String text, int width, String indent) {
    text = VisibleText.cell(text);
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == ' ' && !quoted) {
        words.add(word.toString());
        word.setLength(0);
        continue;
      }
      if (c == '"' && (i == 0 || text.charAt(i - 1) != '\\')) {
        quoted = !quoted;
      }
      word.append(c);
    }
    words.add(word.toString());
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String w : words) {
      if (line.length() > indent.length() && line.length() + 1 + w.length() > width - 2) {
        lines.add(line.append(" \\").toString());
        line = new StringBuilder(indent);
      }
      line.append(line.length() == 0 || line.toString().equals(indent) ? "" : " ").append(w);
    }
    lines.add(line.toString());
    return lines;
  }

  private static void frames(List<Frame> frames, int width, List<String> out) {
    int shown = Math.min(frames.size(), TABLE_FRAMES);
    for (Frame fr : frames.subList(0, shown)) {
      out.addAll(wrap("  at " + fr.text(), width, "      "));
    }
    if (frames.size() > shown) {
      out.add("  ... " + (frames.size() - shown) + " more frames (--format json or --html)");
    }
  }

  /**
   * Text in lines of at most {@code width} characters, broken at spaces, the lines after the first
   * indented by {@code indent}; a word longer than a line is cut across lines.
   */
  static List<String> wrap(String text, int width, String indent) {
    // Escaped before it is measured: a name or a message from the target may hold what a terminal
    // would act on.
    text = VisibleText.cell(text);
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    boolean empty = true;
    for (String word : text.split(" ")) {
      String w = word;
      while (true) {
        int room = width - line.length() - (empty ? 0 : 1);
        if (w.length() <= room) {
          line.append(empty ? "" : " ").append(w);
          empty = false;
          break;
        }
        if (!empty && (w.length() <= width - indent.length() || room < 8)) {
          lines.add(line.toString());
          line = new StringBuilder(indent);
          empty = true;
          continue;
        }
        if (!empty) {
          // Longer than any line: it starts here and goes on below.
          line.append(' ');
          empty = true;
        }
        // A word longer than a whole line: cut across lines, after a comma or before a type's
        // next part where one is in the second half of the room.
        int cut = Math.max(1, Math.min(room, width - line.length()));
        for (int at = cut; at > cut / 2; at--) {
          char c = w.charAt(at - 1);
          char after = w.charAt(at);
          if (c == ',' || after == '<' || after == '+' || after == '.') {
            cut = at;
            break;
          }
        }
        line.append(w, 0, cut);
        lines.add(line.toString());
        line = new StringBuilder(indent);
        w = w.substring(cut);
        if (w.isEmpty()) {
          break;
        }
      }
    }
    if (!empty || lines.isEmpty()) {
      lines.add(line.toString());
    }
    return lines;
  }
}
