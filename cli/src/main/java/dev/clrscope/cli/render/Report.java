package dev.clrscope.cli.render;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What a command returns when its work is done (a listing, a report, a summary at the end of a
 * stream): its parts in order, each declared once, drawn by the {@link Renderer} of the format the
 * user chose. A table renderer draws every part for a person; JSON puts them in one document; CSV,
 * which holds one table, draws the primary part on stdout and the others as text on stderr.
 */
public final class Report implements Result {
  /** A part of a report. */
  public sealed interface Part permits Values, Rows, Tree, Note {}

  /**
   * One record shown on its own: {@code Label value} lines in a table, members of the document in
   * JSON, a header and one row in CSV.
   */
  public record Values<R>(RecordSchema<R> schema, R record) implements Part {}

  /**
   * Rows under columns.
   *
   * @param key the JSON member that holds them; {@code null} for a report of this table alone,
   *     which JSON draws as a bare array, or for a table a person reads beside the member that
   *     holds the same rows
   * @param title a heading line above the table, or {@code null}
   * @param details the lines a table draws under a row (a stack's frames), or {@code null}
   * @param jsonMap JSON draws the rows as one object, the first JSON field's value naming the
   *     second's (a count per type); {@code false} for an array of objects
   */
  public record Rows<R>(
      String key,
      String title,
      RecordSchema<R> schema,
      List<R> rows,
      Function<? super R, List<String>> details,
      boolean jsonMap)
      implements Part {
    /** Copies the rows. */
    public Rows {
      rows = List.copyOf(rows);
    }
  }

  /**
   * A tree of records (a dominator tree, paths from roots): a table indents its tree column by
   * depth, CSV gives every node an {@code id}, its {@code parentId} and {@code depth}, JSON nests
   * nodes under {@code children}.
   *
   * @param treeColumn the key of the column a table indents
   */
  public record Tree<N>(
      String key,
      String title,
      RecordSchema<N> schema,
      List<N> roots,
      Function<? super N, List<N>> children,
      String treeColumn)
      implements Part {
    /** Copies the roots. */
    public Tree {
      roots = List.copyOf(roots);
    }
  }

  /** A line for a person (such as {@code No thread was blocked.}); JSON and CSV leave it out. */
  public record Note(String text) implements Part {}

  private final List<Part> parts;
  private final Part primary;
  private final String failure;
  private final int exitCode;

  private Report(List<Part> parts, Part primary, String failure, int exitCode) {
    this.parts = List.copyOf(parts);
    this.primary = primary;
    this.failure = failure;
    this.exitCode = exitCode;
  }

  /**
   * This report, ending the command with {@code message} (exit 1) once it is drawn: for what is
   * worth showing though it is not whole.
   */
  public Report failingAfterDrawn(String message) {
    return new Report(parts, primary, message, exitCode);
  }

  @Override
  public String failureAfterDrawn() {
    return failure;
  }

  /**
   * This report, ending the command with {@code code} once it is drawn: what the report found is
   * the answer a script asks for ({@code triage --fail-on}'s 3). A failure after drawing comes
   * first.
   */
  public Report exitingWith(int code) {
    return new Report(parts, primary, failure, code);
  }

  @Override
  public int exitCode() {
    return exitCode;
  }

  /** The parts, in order. */
  public List<Part> parts() {
    return parts;
  }

  /**
   * The part CSV draws: the one marked primary, else the first table or tree, else the first
   * record; {@code null} for a report of notes alone.
   */
  public Part primary() {
    if (primary != null) {
      return primary;
    }
    for (Part p : parts) {
      if (p instanceof Rows<?> || p instanceof Tree<?>) {
        return p;
      }
    }
    for (Part p : parts) {
      if (p instanceof Values<?>) {
        return p;
      }
    }
    return null;
  }

  /**
   * The rows of the table under {@code key} (its JSON member; {@code null}: the report's table
   * without one), or the roots of such a tree; empty when there is none. For code that reads a
   * result rather than draws it, such as tests.
   */
  @SuppressWarnings("unchecked")
  public <R> List<R> rows(String key) {
    for (Part p : parts) {
      if (p instanceof Rows<?> r && java.util.Objects.equals(r.key(), key)) {
        return (List<R>) r.rows();
      }
      if (p instanceof Tree<?> t && java.util.Objects.equals(t.key(), key)) {
        return (List<R>) t.roots();
      }
    }
    return List.of();
  }

  /** The record of the first part shown on its own, or {@code null}. */
  @SuppressWarnings("unchecked")
  public <R> R record() {
    for (Part p : parts) {
      if (p instanceof Values<?> v) {
        return (R) v.record();
      }
    }
    return null;
  }

  /** The notes' lines, in order. */
  public List<String> notes() {
    List<String> notes = new ArrayList<>();
    for (Part p : parts) {
      if (p instanceof Note n) {
        notes.add(n.text());
      }
    }
    return notes;
  }

  private static final RecordSchema<Object> PATH =
      new RecordSchema<>(null, List.of(Field.of("path", "", 0, Unit.TEXT, p -> p)));

  /** The path of a file a command wrote: its one line on stdout, for a script. */
  public static Report path(Object path) {
    return record(PATH, path);
  }

  /** A report of one table, drawn in JSON as a bare array. */
  public static <R> Report table(RecordSchema<R> schema, List<R> rows) {
    return builder().rows(null, null, schema, rows).build();
  }

  /** A report of one record. */
  public static <R> Report record(RecordSchema<R> schema, R record) {
    return builder().values(schema, record).build();
  }

  /** A new report, part by part. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a report. */
  public static final class Builder {
    private final List<Part> parts = new ArrayList<>();
    private Part primary;

    private Builder() {}

    /** Adds a record shown on its own. */
    public <R> Builder values(RecordSchema<R> schema, R record) {
      parts.add(new Values<>(schema, record));
      return this;
    }

    /** Adds a table. */
    public <R> Builder rows(String key, String title, RecordSchema<R> schema, List<R> rows) {
      parts.add(new Rows<>(key, title, schema, rows, null, false));
      return this;
    }

    /**
     * Adds a table that JSON draws as one object, each row's first JSON field naming its second (a
     * count per type, a value per name).
     */
    public <R> Builder mapRows(String key, String title, RecordSchema<R> schema, List<R> rows) {
      parts.add(new Rows<>(key, title, schema, rows, null, true));
      return this;
    }

    /** Adds a table whose rows a table draws with lines under them (a stack's frames). */
    public <R> Builder rows(
        String key,
        String title,
        RecordSchema<R> schema,
        List<R> rows,
        Function<? super R, List<String>> details) {
      parts.add(new Rows<>(key, title, schema, rows, details, false));
      return this;
    }

    /** Adds a tree. */
    public <N> Builder tree(
        String key,
        String title,
        RecordSchema<N> schema,
        List<N> roots,
        Function<? super N, List<N>> children,
        String treeColumn) {
      parts.add(new Tree<>(key, title, schema, roots, children, treeColumn));
      return this;
    }

    /** Adds a part. */
    public Builder part(Part part) {
      parts.add(part);
      return this;
    }

    /** Adds a note for a person. */
    public Builder note(String text) {
      parts.add(new Note(text));
      return this;
    }

    /** Marks the last part added as the one CSV draws. */
    public Builder primary() {
      primary = parts.get(parts.size() - 1);
      return this;
    }

    /** The report. */
    public Report build() {
      return new Report(parts, primary, null, 0);
    }
  }
}
