package dev.clrscope.cli.render;

import java.util.List;

/**
 * What a table shows of a live stream instead of its rows (counters monitor's board): a frame the
 * table renderer redraws in place on a terminal, cut to its width and height, or prints one after
 * another when output is not a terminal. The other formats write the stream's records.
 */
public interface LiveView {
  /**
   * Told once, before the first frame: whether frames are redrawn in place (on a terminal) or
   * printed one after another.
   */
  void start(boolean inPlace);

  /**
   * The frame's lines now, for a terminal {@code width} wide (0: not a terminal); the renderer cuts
   * what is still wider, and a frame taller than the terminal.
   */
  List<String> frame(int width);
}
