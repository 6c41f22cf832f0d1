package dev.clrscope.cli.render;

import dev.clrscope.symbols.Frame;
import dev.clrscope.symbols.SourceLine;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * How a frame's source line is drawn, in one place for every command: JSON and CSV carry {@code
 * file} (the document's path as the PDB has it) and {@code line}, left out of a JSON object when
 * there is none; a table shows {@code Program.cs:42}, in a column of its own or after the method
 * ({@code Method (Program.cs:42)}); a stack is a JSON list of frames ({@code method}, {@code file},
 * {@code line}) and a list of such texts elsewhere.
 */
public final class FrameFields {
  private FrameFields() {}

  /** A frame of a stack, as a JSON object. */
  public static final RecordSchema<Frame> FRAME =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("method", "METHOD", 0, Unit.TEXT, Frame::name),
              Field.of("file", "FILE", 0, Unit.TEXT, Frame::file).optional(),
              Field.of("line", "LINE", 0, Unit.COUNT, Frame::lineNumber).optional()));

  /**
   * The {@code file} and {@code line} members of a record (JSON and CSV; JSON leaves them out when
   * there is no line) and, when {@code column} is given, a table column of that heading with {@code
   * Program.cs:42}.
   */
  public static <R> List<Field<R>> lineFields(Function<? super R, SourceLine> line, String column) {
    List<Field<R>> fields = new ArrayList<>();
    if (column != null) {
      fields.add(
          Field.<R>of("source", column, 0, Unit.TEXT, r -> null)
              .cell(r -> line.apply(r) == null ? "-" : line.apply(r).text())
              .only(Field.Shown.TABLE)
              .cutAtStart());
    }
    fields.add(
        Field.<R>data(
                "file",
                Unit.TEXT,
                r -> {
                  SourceLine l = line.apply(r);
                  return l == null ? null : l.file();
                })
            .optional());
    fields.add(
        Field.<R>data(
                "line",
                Unit.COUNT,
                r -> {
                  SourceLine l = line.apply(r);
                  return l == null ? null : l.line();
                })
            .optional());
    return fields;
  }

  /**
   * A stack: a JSON list of frame objects under {@code key}, and in CSV the frames' texts ({@code
   * Method (Program.cs:42)}) separated by {@code ;}; an empty stack is left out of JSON.
   */
  public static <R> List<Field<R>> stackFields(String key, Function<? super R, List<Frame>> stack) {
    Function<R, List<Frame>> orNull =
        r -> {
          List<Frame> frames = stack.apply(r);
          return frames == null || frames.isEmpty() ? null : frames;
        };
    return List.of(
        Field.<R, Frame>nested(key, FRAME, orNull).optional(),
        Field.<R>of(key, key, 0, Unit.TEXT, r -> csvStack(orNull.apply(r))).only(Field.Shown.CSV));
  }

  /**
   * A frame as a record's member: its name under {@code key} (the table shows {@code Method
   * (Program.cs:42)} under {@code heading}), then {@code file} and {@code line} for JSON and CSV.
   */
  public static <R> List<Field<R>> frameFields(
      String key, String heading, int width, Function<? super R, Frame> frame) {
    List<Field<R>> fields = new ArrayList<>();
    fields.add(
        Field.<R>of(
                key,
                heading,
                width,
                Unit.TEXT,
                r -> {
                  Frame f = frame.apply(r);
                  return f == null ? null : f.name();
                })
            .cell(
                r -> {
                  Frame f = frame.apply(r);
                  return f == null ? "-" : f.text();
                })
            .cutAtStart());
    fields.addAll(
        lineFields(
            r -> {
              Frame f = frame.apply(r);
              return f == null ? null : f.line();
            },
            null));
    return fields;
  }

  /** A stack's frames as lines under a table row: {@code at Method (Program.cs:42)}. */
  public static List<String> atFrames(List<Frame> stack) {
    List<String> lines = new ArrayList<>(stack.size());
    for (Frame f : stack) {
      lines.add("at " + f.text());
    }
    return lines;
  }

  private static String csvStack(List<Frame> frames) {
    if (frames == null) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    for (Frame f : frames) {
      if (sb.length() > 0) {
        sb.append(';');
      }
      sb.append(f.text());
    }
    return sb.toString();
  }

  /** The texts of frames ({@link Frame#text}), innermost first. */
  public static List<String> texts(List<Frame> frames) {
    List<String> texts = new ArrayList<>(frames.size());
    for (Frame f : frames) {
      texts.add(f.text());
    }
    return texts;
  }
}
