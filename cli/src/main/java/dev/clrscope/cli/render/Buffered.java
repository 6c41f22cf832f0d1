package dev.clrscope.cli.render;

import java.io.BufferedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Where a renderer writes a stream's records: straight to its output, flushed after each record,
 * for a live session watched as it happens; through a 64 KiB buffer, flushed when the stream ends,
 * for output read as a whole (millions of a file's events), which a line-flushed stdout would write
 * a system call a line.
 */
final class Buffered {
  private Buffered() {}

  /** The stream to write {@code stream}'s records to: {@code out} itself or a buffer over it. */
  static PrintStream of(PrintStream out, Renderer.Stream<?> stream) {
    return stream.flushEach()
        ? out
        : new PrintStream(new BufferedOutputStream(out, 1 << 16), false, StandardCharsets.UTF_8);
  }
}
