package dev.clrscope.cli.render;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What the table renderer draws on a terminal of 80 columns (and 30 rows): for the tests of what a
 * narrow terminal keeps.
 */
public final class EightyColumns {
  private EightyColumns() {}

  /** The terminal's width. */
  public static final int WIDTH = 80;

  /** The terminal's height. */
  public static final int HEIGHT = 30;

  /** The lines of a report drawn at 80 columns. */
  public static List<String> report(Report report) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream stream = new PrintStream(out, true, StandardCharsets.UTF_8);
    new TextRenderer(stream, stream, new Terminal.Size(true, HEIGHT, WIDTH)).report(report);
    return out.toString(StandardCharsets.UTF_8).lines().toList();
  }

  /** The lines of records drawn as they come at 80 columns (what it says on stderr apart). */
  @SafeVarargs
  public static <R> List<String> stream(Renderer.Stream<R> stream, R... records) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    new TextRenderer(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            new Terminal.Size(true, HEIGHT, WIDTH))
        .draw(
            Records.of(
                stream,
                sink -> {
                  for (R r : records) {
                    sink.write(r);
                  }
                  return null;
                }));
    return out.toString(StandardCharsets.UTF_8).lines().toList();
  }

  /** The last frame of a live view redrawn in place on an 80 by 30 terminal: its lines. */
  public static List<String> liveFrame(LiveView view) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream stream = new PrintStream(out, true, StandardCharsets.UTF_8);
    new TextRenderer(stream, stream, new Terminal.Size(true, HEIGHT, WIDTH))
        .draw(
            Records.of(
                Renderer.Stream.live(new RecordSchema<Object>(null, List.of())).withView(view),
                sink -> {
                  sink.redraw();
                  return null;
                }));
    String text = out.toString(StandardCharsets.UTF_8);
    String frame = text.substring(text.lastIndexOf("\u001b[H") + 3);
    frame = frame.substring(0, frame.indexOf("\u001b[J"));
    return List.of(frame.replace("\u001b[K", "").split("\n"));
  }
}
