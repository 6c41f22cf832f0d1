package dev.clrscope.cli.dacprocess;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A command's output as the front receives it, held until the command ends, so that a DAC process
 * that dies under a command leaves nothing of it on stdout ({@code --format json} stays whole
 * documents). What goes to stderr waits only behind stdout bytes written before it, so both reach
 * the user in the order the command wrote them and notes (a pause said, a progress line) show at
 * once. Past {@link #LIMIT} held bytes the rest streams: a listing of millions of objects is not
 * kept whole, and the promise holds for the first {@value #LIMIT} bytes only.
 */
final class HeldOutput {
  /** At most this many bytes of stdout are held. */
  static final int LIMIT = 16 << 20;

  private final PrintStream out;
  private final PrintStream err;
  private final List<byte[]> chunks = new ArrayList<>();
  private final List<Boolean> toOut = new ArrayList<>();
  private long heldOut;
  private boolean streaming;

  HeldOutput(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** Bytes for stdout. */
  void out(byte[] bytes) {
    if (!streaming && heldOut + bytes.length > LIMIT) {
      release();
      streaming = true;
    }
    if (streaming) {
      out.write(bytes, 0, bytes.length);
      out.flush();
      return;
    }
    chunks.add(bytes);
    toOut.add(true);
    heldOut += bytes.length;
  }

  /** Bytes for stderr. */
  void err(byte[] bytes) {
    if (heldOut == 0 || streaming) {
      err.write(bytes, 0, bytes.length);
      err.flush();
      return;
    }
    chunks.add(bytes);
    toOut.add(false);
  }

  /** The command ended: everything held is written, in order. */
  void release() {
    write(true);
  }

  /** The command ended without its output: what was held for stdout is dropped. */
  void drop() {
    write(false);
  }

  private void write(boolean withOut) {
    for (int i = 0; i < chunks.size(); i++) {
      byte[] b = chunks.get(i);
      if (toOut.get(i)) {
        if (withOut) {
          out.write(b, 0, b.length);
        }
      } else {
        out.flush();
        err.write(b, 0, b.length);
        err.flush();
      }
    }
    out.flush();
    chunks.clear();
    toOut.clear();
    heldOut = 0;
    streaming = false;
  }
}
