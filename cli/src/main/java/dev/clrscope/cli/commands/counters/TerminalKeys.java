package dev.clrscope.cli.commands.counters;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
      k.savedMode = stty("-g");
      if (k.savedMode != null && stty("-icanon", "-echo", "min", "1") == null) {
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

  /**
   * Whether file descriptor {@code fd} of this process is a terminal (Linux: its /proc link names a
   * tty). Elsewhere, whether the JVM has a console.
   */
  static boolean isTerminal(int fd) {
    Path link = Path.of("/proc/self/fd/" + fd);
    try {
      String target = Files.readSymbolicLink(link).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  /** Runs {@code stty ARGS} on the controlling terminal; its output, or null if it failed. */
  private static String stty(String... args) {
    String[] command = new String[args.length + 1];
    command[0] = "stty";
    System.arraycopy(args, 0, command, 1, args.length);
    try {
      Process p =
          new ProcessBuilder(command)
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/tty")))
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(5, TimeUnit.SECONDS) || p.exitValue() != 0) {
        return null;
      }
      return new String(out, java.nio.charset.StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** Restores the terminal's mode. */
  @Override
  public void close() {
    if (savedMode != null) {
      stty(savedMode);
      savedMode = null;
    }
  }
}
