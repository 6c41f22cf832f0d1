package dev.clrscope.cli.commands.analyze;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Keeps each command's JSON document on one line: the renderer's own line breaks (between a
 * stream's records, after a document) are whitespace, and a line break inside a JSON string is
 * always escaped, so dropping every raw one leaves the same document; {@link #endLine} ends it.
 */
final class OneLineJson extends FilterOutputStream {
  private boolean written;

  OneLineJson(OutputStream out) {
    super(out);
  }

  @Override
  public void write(int b) throws IOException {
    if (b != '\n' && b != '\r') {
      out.write(b);
      written = true;
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    int run = off;
    for (int i = off; i < off + len; i++) {
      if (b[i] == '\n' || b[i] == '\r') {
        if (i > run) {
          out.write(b, run, i - run);
          written = true;
        }
        run = i + 1;
      }
    }
    if (off + len > run) {
      out.write(b, run, off + len - run);
      written = true;
    }
  }

  /** Ends the document written since the last call with a line break, if one was written. */
  void endLine() throws IOException {
    if (written) {
      out.write('\n');
      written = false;
    }
    out.flush();
  }
}
