package dev.clrscope.cli.commands.triage;

import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.cli.render.JsonText;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.TypeDiff;
import dev.clrscope.symbols.Frame;
import dev.clrscope.triage.Check;
import dev.clrscope.triage.Evidence;
import dev.clrscope.triage.Finding;
import dev.clrscope.triage.TriageResult;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Triage's report as one self-contained HTML file: no network at view time (its own styles and
 * script, a content security policy that allows nothing else), the findings with each thread's and
 * exception's stack folded in a {@code <details>} that opens on click, and a treemap of the heap by
 * retained size that its script draws from the dominator tree's biggest retainers.
 */
final class TriageHtml {
  private TriageHtml() {}

  /** Writes the file whole or not at all. */
  static void write(Path file, TriageResult r, String runtime) {
    String html = html(r, runtime);
    OutputFile.write(
        file,
        out -> {
          Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
          w.write(html);
          w.flush();
          return null;
        });
  }

  static String html(TriageResult r, String runtime) {
    StringBuilder h = new StringBuilder(64 * 1024);
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        .append(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"
                + " style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>clrscope triage: ")
        .append(esc(r.target()))
        .append("</title>\n<style>")
        .append(STYLE)
        .append("</style></head><body>\n<header><h1>clrscope triage</h1><dl class=\"head\">");
    term(h, "Target", r.target());
    if (runtime != null) {
      term(h, "Runtime", runtime);
    }
    if (r.earlier() != null) {
      term(h, "Compared with", r.earlier());
    }
    if (r.reachableBytes() >= 0) {
      term(h, "Heap", bytes(r.reachableBytes()) + " reachable from roots");
    }
    term(h, "Findings", r.findings().isEmpty() ? "none" : r.findings().size() + ": " + r.tally());
    h.append("</dl></header>\n<main>\n<section id=\"findings\"><h2>Findings</h2>\n");
    if (r.findings().isEmpty()) {
      h.append("<p class=\"nothing\">Nothing found. What was checked is below.</p>\n");
    } else {
      h.append("<p><button type=\"button\" id=\"open-all\">Open every stack</button></p>\n");
    }
    for (Finding f : r.findings()) {
      finding(h, f);
    }
    h.append("</section>\n");
    if (r.reachableBytes() >= 0) {
      h.append(
              "<section id=\"heap\"><h2>The heap by retained size</h2>\n"
                  + "<p>Each box is an object only its parent (or a root) keeps alive, sized by"
                  + " what it retains; hover for its type and address.</p>\n"
                  + "<svg id=\"treemap\" viewBox=\"0 0 960 480\" role=\"img\""
                  + " aria-label=\"treemap of the heap by retained size\"></svg>\n")
          .append("<script type=\"application/json\" id=\"heap-data\">")
          .append(scriptJson(heapJson(r)))
          .append(
              "</script>\n<table class=\"retainers\"><thead><tr><th>retained</th><th>share</th>"
                  + "<th>type</th><th>address</th></tr></thead><tbody>\n");
      for (HeapSnapshot.Retainer t : r.heap()) {
        h.append("<tr><td class=\"n\">")
            .append(bytes(t.retained()))
            .append("</td><td class=\"n\">")
            .append(
                String.format(
                    Locale.ROOT, "%.1f%%", 100.0 * t.retained() / Math.max(1, r.reachableBytes())))
            .append("</td><td>")
            .append(esc(t.type()))
            .append("</td><td><code>0x")
            .append(Long.toHexString(t.address()))
            .append("</code></td></tr>\n");
      }
      h.append("</tbody></table></section>\n");
    }
    if (r.earlier() != null) {
      h.append("<section id=\"grown\"><h2>What grew since ")
          .append(esc(r.earlier()))
          .append(
              "</h2><table><thead><tr><th>+retained</th><th>+count</th><th>+size</th>"
                  + "<th>type</th></tr></thead><tbody>\n");
      for (TypeDiff d : r.grown()) {
        h.append("<tr><td class=\"n\">")
            .append(bytes(d.retainedDelta()))
            .append("</td><td class=\"n\">")
            .append(String.format(Locale.ROOT, "%,d", d.countDelta()))
            .append("</td><td class=\"n\">")
            .append(bytes(d.sizeDelta()))
            .append("</td><td>")
            .append(esc(d.type()))
            .append("</td></tr>\n");
      }
      h.append("</tbody></table></section>\n");
    }
    h.append("<section id=\"checked\"><h2>What was checked</h2><table><tbody>\n");
    for (Check c : r.checks()) {
      h.append("<tr><th>")
          .append(esc(c.area()))
          .append("</th><td>")
          .append(esc(c.result()))
          .append("</td></tr>\n");
    }
    h.append("</tbody></table></section>\n</main>\n<script>")
        .append(SCRIPT)
        .append("</script>\n</body></html>\n");
    return h.toString();
  }

  private static void finding(StringBuilder h, Finding f) {
    h.append("<article class=\"finding sev-")
        .append(f.severity().label())
        .append("\" data-kind=\"")
        .append(esc(f.kind()))
        .append("\"><h3><span class=\"sev\">")
        .append(f.severity().label())
        .append("</span> ")
        .append(esc(f.kind()))
        .append("</h3>\n<p class=\"title\">")
        .append(esc(f.title()))
        .append("</p>\n");
    Evidence e = f.evidence();
    for (Evidence.ThreadEntry t : e.threads()) {
      h.append("<details class=\"stack\"><summary>thread ")
          .append(esc(t.label()))
          .append(t.role() == null ? "" : ": " + esc(t.role()))
          .append("</summary>");
      frames(h, t.frames());
      h.append("</details>\n");
    }
    for (Evidence.ExceptionEntry x : e.exceptions()) {
      h.append("<details class=\"stack exception\"><summary>")
          .append(x.depth() == 0 ? "exception " : "inner exception ")
          .append("<code>0x")
          .append(Long.toHexString(x.address()))
          .append("</code> ")
          .append(esc(x.type()))
          .append(x.message() == null ? "" : ": " + esc(x.message()))
          .append(" (")
          .append(esc(x.hresult()))
          .append(")</summary>");
      frames(h, x.frames());
      h.append("</details>\n");
    }
    if (!e.objects().isEmpty()) {
      h.append(
          "<table class=\"objects\"><thead><tr><th>address</th><th>type</th><th>size</th>"
              + "<th>retained</th><th></th></tr></thead><tbody>\n");
      for (Evidence.ObjectEntry o : e.objects()) {
        h.append("<tr><td><code>0x")
            .append(Long.toHexString(o.address()))
            .append("</code></td><td>")
            .append(esc(o.type()))
            .append("</td><td class=\"n\">")
            .append(bytes(o.size()))
            .append("</td><td class=\"n\">")
            .append(o.retained() == null ? "" : bytes(o.retained()))
            .append("</td><td>")
            .append(o.role() == null ? "" : esc(o.role()))
            .append("</td></tr>\n");
      }
      h.append("</tbody></table>\n");
    }
    if (!e.facts().isEmpty()) {
      h.append("<dl class=\"facts\">");
      for (Evidence.Fact fact : e.facts()) {
        Object v = fact.value();
        term(
            h,
            fact.name(),
            v instanceof Long || v instanceof Integer
                ? String.format(Locale.ROOT, "%,d", ((Number) v).longValue())
                : String.valueOf(v));
      }
      h.append("</dl>\n");
    }
    h.append("<div class=\"next\">Next:");
    for (String n : f.next()) {
      h.append("<pre><code>").append(esc(n)).append("</code></pre>");
    }
    h.append("</div></article>\n");
  }

  private static void frames(StringBuilder h, List<Frame> frames) {
    h.append("<ol class=\"frames\">");
    for (Frame fr : frames) {
      h.append("<li>").append(esc(fr.name()));
      if (fr.line() != null) {
        h.append(" <span class=\"line\">").append(esc(fr.line().text())).append("</span>");
      }
      h.append("</li>");
    }
    h.append("</ol>");
  }

  private static void term(StringBuilder h, String name, String value) {
    h.append("<dt>").append(esc(name)).append("</dt><dd>").append(esc(value)).append("</dd>");
  }

  /** The heap's picture as the script reads it: the total, then the retainers nested. */
  private static Map<String, Object> heapJson(TriageResult r) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("retained", r.reachableBytes());
    root.put("children", retainers(r.heap()));
    return root;
  }

  private static List<Object> retainers(List<HeapSnapshot.Retainer> list) {
    List<Object> out = new ArrayList<>(list.size());
    for (HeapSnapshot.Retainer t : list) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("type", t.type());
      o.put("address", "0x" + Long.toHexString(t.address()));
      o.put("size", t.size());
      o.put("retained", t.retained());
      o.put("children", retainers(t.children()));
      out.add(o);
    }
    return out;
  }

  /** JSON inside a script element: no {@code </script>} can end it early. */
  private static String scriptJson(Object value) {
    return JsonText.of(value).replace("<", "\\u003c").replace(">", "\\u003e");
  }

  private static String bytes(long n) {
    return String.format(Locale.ROOT, "%,d B", n);
  }

  static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder sb = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '&' -> sb.append("&amp;");
        case '"' -> sb.append("&quot;");
        case '\'' -> sb.append("&#39;");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }

  private static final String STYLE =
      """
      body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1b1f24;
      background:#f6f7f9}header{background:#20252c;color:#fff;padding:12px 24px}
      header h1{margin:0 0 6px;font-size:20px}main{padding:8px 24px 40px;max-width:1100px}
      dl.head{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:0}
      dl.head dt{color:#aab}dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px}
      dl.facts dt{color:#556}dd{margin:0}
      .finding{background:#fff;border-left:6px solid #888;border-radius:4px;margin:12px 0;
      padding:8px 16px;box-shadow:0 1px 2px rgba(0,0,0,.08)}
      .sev-critical{border-color:#c62828}.sev-error{border-color:#ef6c00}
      .sev-warning{border-color:#f9a825}.sev-info{border-color:#1e88e5}
      .finding h3{margin:4px 0;font-size:15px}.sev{text-transform:uppercase;font-size:12px;
      padding:1px 6px;border-radius:3px;background:#eee;margin-right:6px}
      .title{font-weight:600;margin:4px 0 8px}details.stack{margin:4px 0}
      details.stack summary{cursor:pointer}ol.frames{font-family:ui-monospace,Menlo,Consolas,monospace;
      font-size:12.5px;margin:4px 0 8px}.line{color:#1565c0}code,pre{font-family:ui-monospace,Menlo,
      Consolas,monospace;font-size:12.5px}pre{background:#f0f2f5;padding:4px 8px;margin:4px 0;
      white-space:pre-wrap;word-break:break-all}table{border-collapse:collapse;margin:6px 0;max-width:100%}
      td,th{padding:2px 10px;border-bottom:1px solid #e3e5e8;text-align:left;vertical-align:top;overflow-wrap:anywhere}
      td.n{text-align:right;white-space:nowrap}#treemap{width:100%;height:auto;background:#fff;
      border:1px solid #dde}#treemap text{font-size:11px;pointer-events:none;fill:#111}
      .heap-cell{stroke:#fff;stroke-width:1}
      """;

  private static final String SCRIPT =
      """
      (function () {
        'use strict';
        var button = document.getElementById('open-all');
        if (button) {
          button.addEventListener('click', function () {
            var all = document.querySelectorAll('details.stack');
            var open = button.textContent.indexOf('Open') === 0;
            for (var i = 0; i < all.length; i++) { all[i].open = open; }
            button.textContent = open ? 'Fold every stack' : 'Open every stack';
          });
        }
        var source = document.getElementById('heap-data');
        var svg = document.getElementById('treemap');
        if (!source || !svg) { return; }
        var heap = JSON.parse(source.textContent);
        var NS = 'http://www.w3.org/2000/svg';
        var cells = 0;
        function worst(row, side) {
          var sum = 0, max = 0, min = Infinity;
          row.forEach(function (r) { sum += r.area; max = Math.max(max, r.area); min = Math.min(min, r.area); });
          var s2 = sum * sum, side2 = side * side;
          return Math.max(side2 * max / s2, s2 / (side2 * min));
        }
        function squarify(items, x, y, w, h) {
          var total = items.reduce(function (s, i) { return s + i.value; }, 0);
          var out = [];
          if (total <= 0 || w <= 0 || h <= 0) { return out; }
          var rest = items.map(function (i) { return { item: i, area: i.value * w * h / total }; });
          while (rest.length) {
            var side = Math.min(w, h), row = [], best = Infinity;
            while (rest.length) {
              var next = row.concat([rest[0]]);
              var ratio = worst(next, side);
              if (row.length && ratio > best) { break; }
              row = next; best = ratio; rest.shift();
            }
            var sum = row.reduce(function (s, r) { return s + r.area; }, 0);
            var thick = sum / side, at = 0;
            row.forEach(function (r) {
              var len = r.area / thick;
              if (w >= h) { out.push({ item: r.item, x: x, y: y + at, w: thick, h: len }); }
              else { out.push({ item: r.item, x: x + at, y: y, w: len, h: thick }); }
              at += len;
            });
            if (w >= h) { x += thick; w -= thick; } else { y += thick; h -= thick; }
          }
          return out;
        }
        function color(type, depth) {
          var hash = 0;
          for (var i = 0; i < type.length; i++) { hash = (hash * 31 + type.charCodeAt(i)) | 0; }
          return 'hsl(' + (Math.abs(hash) % 360) + ',55%,' + (78 - depth * 8) + '%)';
        }
        function items(node) {
          var kids = (node.children || []).map(function (c) { return { value: c.retained, node: c }; });
          var inKids = kids.reduce(function (s, k) { return s + k.value; }, 0);
          if (node.retained > inKids) { kids.push({ value: node.retained - inKids, node: null }); }
          return kids;
        }
        function draw(node, x, y, w, h, depth) {
          squarify(items(node), x, y, w, h).forEach(function (c) {
            if (!c.item.node) { return; }
            var n = c.item.node;
            var rect = document.createElementNS(NS, 'rect');
            rect.setAttribute('x', c.x.toFixed(1)); rect.setAttribute('y', c.y.toFixed(1));
            rect.setAttribute('width', Math.max(0, c.w).toFixed(1));
            rect.setAttribute('height', Math.max(0, c.h).toFixed(1));
            rect.setAttribute('class', 'heap-cell');
            rect.setAttribute('fill', color(n.type, depth));
            rect.setAttribute('data-type', n.type);
            rect.setAttribute('data-address', n.address);
            rect.setAttribute('data-retained', String(n.retained));
            var title = document.createElementNS(NS, 'title');
            title.textContent = n.type + ' ' + n.address + ': retains ' +
                n.retained.toLocaleString('en') + ' bytes (' +
                (100 * n.retained / Math.max(1, heap.retained)).toFixed(1) + '% of the heap)';
            rect.appendChild(title);
            svg.appendChild(rect);
            cells++;
            if (c.w > 60 && c.h > 14) {
              var label = document.createElementNS(NS, 'text');
              label.setAttribute('x', (c.x + 3).toFixed(1)); label.setAttribute('y', (c.y + 12).toFixed(1));
              var name = n.type.length * 6 > c.w - 6 ? n.type.slice(0, Math.max(1, Math.floor((c.w - 6) / 6) - 1)) + '\\u2026' : n.type;
              label.textContent = name;
              svg.appendChild(label);
            }
            if (n.children && n.children.length && c.w > 40 && c.h > 34) {
              draw(n, c.x + 2, c.y + 16, c.w - 4, c.h - 18, depth + 1);
            }
          });
        }
        draw(heap, 0, 0, 960, 480, 0);
        svg.setAttribute('data-cells', String(cells));
        console.info('clrscope triage: heap picture drawn, ' + cells + ' cells');
      })();
      """;
}
