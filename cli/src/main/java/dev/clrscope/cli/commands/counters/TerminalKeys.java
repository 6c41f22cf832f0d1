package dev.clrscope.cli.commands.counters;

import dev.clrscope.cli.render.Terminal;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.IntConsumer;

/**
 * Single key presses on stdin for {@code counters monitor} (p, r, q). On a terminal it puts the
 * terminal in non-canonical, no-echo mode with {@code stty} (so a key acts without Enter and is not
 * echoed into the view) and restores the saved mode on close; from a pipe it just reads bytes. stty
 * rather than a terminal library keeps start-up fast.
 */
final class TerminalKeys implements AutoCloseable {
  private String savedMode;
  private Thread reader;

  private TerminalKeys() {}

  /** Starts reading keys on a daemon thread, handing each byte to {@code onKey}. */
  static TerminalKeys start(InputStream in, IntConsumer onKey) {
    TerminalKeys k = new TerminalKeys();
    if (isTerminal(0)) {
      k.savedMode = Terminal.stty("-g");
      if (k.savedMode != null && Terminal.stty("-icanon", "-echo", "min", "1") == null) {
        k.savedMode = null;
      }
    }
    k.reader =
        new Thread(
            () -> {
              try {
                int c;
                while ((c = in.read()) >= 0) {
                  onKey.accept(c);
                }
              } catch (IOException e) {
                // No usable stdin: Ctrl+C and --duration still stop the command.
              }
            },
            "clrscope-keys");
    k.reader.setDaemon(true);
    k.reader.start();
    return k;
  }

  /** Whether file descriptor {@code fd} of this process is a terminal. */
  static boolean isTerminal(int fd) {
    return Terminal.isTerminal(fd);
  }

  /** Restores the terminal's mode. */
  @Override
  public void close() {
    if (savedMode != null) {
      Terminal.stty(savedMode);
      savedMode = null;
    }
  }
}
