package dev.clrscope.cli.render;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields of a streamed record type, in order, declared once for every format.
 *
 * @param kind the JSON {@code "kind"} member that tells records apart in a mixed JSON Lines stream,
 *     or {@code null} for none
 * @param fields the fields, in output order
 * @param <R> the record type
 */
public record RecordSchema<R>(String kind, List<Field<R>> fields) {
  /** A schema. */
  public RecordSchema {
    fields = List.copyOf(fields);
  }

  /** The JSON object of a record. */
  public Map<String, Object> jsonObject(R record) {
    Map<String, Object> o = new LinkedHashMap<>();
    if (kind != null) {
      o.put("kind", kind);
    }
    for (Field<R> f : fields) {
      if (f.in().json) {
        Object v = f.value().apply(record);
        if (v != null || !f.omitNull()) {
          o.put(f.key(), f.unit().json(v));
        }
      }
    }
    return o;
  }

  /** The CSV header line: the keys. */
  public String csvHeader() {
    List<String> keys = new ArrayList<>();
    for (Field<R> f : fields) {
      if (f.in().csv) {
        keys.add(f.key());
      }
    }
    return CsvText.row(keys);
  }

  /** The CSV line of a record. */
  public String csvRow(R record) {
    List<Object> values = new ArrayList<>();
    for (Field<R> f : fields) {
      if (f.in().csv) {
        values.add(f.unit().csv(f.unit().json(f.value().apply(record))));
      }
    }
    return CsvText.row(values);
  }

  /**
   * The lines of one record shown on its own, a field a line: its heading, padded to the longest,
   * then its table cell.
   */
  public List<String> recordLines(R record) {
    int width = 0;
    for (Field<R> f : fields) {
      if (f.in().table) {
        width = Math.max(width, f.label().length());
      }
    }
    List<String> lines = new ArrayList<>();
    for (Field<R> f : fields) {
      if (f.in().table) {
        String label = f.label();
        lines.add(label + " ".repeat(width - label.length()) + "  " + f.tableText(record));
      }
    }
    return lines;
  }

  /** The table's heading line. */
  public String tableHeader() {
    List<String> labels = new ArrayList<>();
    for (Field<R> f : fields) {
      if (f.in().table) {
        labels.add(f.label());
      }
    }
    return tableLine(labels);
  }

  /** The table line of a record: fixed widths, so lines align as they arrive. */
  public String tableRow(R record) {
    List<String> cells = new ArrayList<>();
    for (Field<R> f : fields) {
      if (f.in().table) {
        cells.add(f.tableText(record));
      }
    }
    return tableLine(cells);
  }

  private String tableLine(List<String> cells) {
    StringBuilder sb = new StringBuilder();
    int i = 0;
    for (Field<R> f : fields) {
      if (!f.in().table) {
        continue;
      }
      String v = cells.get(i);
      boolean last = i == cells.size() - 1;
      if (i > 0) {
        sb.append("  ");
      }
      int pad = Math.max(0, f.tableWidth() - v.length());
      if (f.unit().rightAligned()) {
        sb.append(" ".repeat(pad)).append(v);
      } else {
        sb.append(v);
        if (!last) {
          sb.append(" ".repeat(pad));
        }
      }
      i++;
    }
    return sb.toString().stripTrailing();
  }
}
