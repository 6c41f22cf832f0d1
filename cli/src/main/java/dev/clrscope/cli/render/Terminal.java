package dev.clrscope.cli.render;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * What clrscope asks of the terminal it runs in: whether a stream is one, its width, and {@code
 * stty} on it. {@code stty} rather than a terminal library keeps start-up fast.
 */
public final class Terminal {
  private Terminal() {}

  /**
   * What the front process found of its terminal, in a process whose own stdin, stdout and stderr
   * are pipes to that front (the DAC process: docs/architecture.md), or null: then this process's
   * own streams are asked.
   */
  private static volatile Facts front;

  /**
   * Whether stdin, stdout and stderr are terminals, and stdout's width (0 when it is none).
   *
   * @param columns as {@link #stdoutColumns()} says
   */
  public record Facts(boolean stdin, boolean stdout, boolean stderr, int columns) {
    /** What this process's own streams are. */
    public static Facts ofThisProcess() {
      return new Facts(isTerminal(0), isTerminal(1), isTerminal(2), stdoutColumns());
    }
  }

  /**
   * Answers {@link #isTerminal} for stdin, stdout and stderr and {@link #stdoutColumns} from {@code
   * facts} from now on: this process writes through a front that owns the terminal (null: its own
   * streams again).
   */
  public static void assumeFront(Facts facts) {
    front = facts;
  }

  /** Whether a front's facts answer here ({@link #assumeFront}). */
  public static boolean fronted() {
    return front != null;
  }

  /**
   * Whether file descriptor {@code fd} of this process is a terminal (Linux: its /proc link names a
   * tty; elsewhere false).
   */
  public static boolean isTerminal(int fd) {
    Facts f = front;
    if (f != null && fd >= 0 && fd <= 2) {
      return fd == 0 ? f.stdin() : fd == 1 ? f.stdout() : f.stderr();
    }
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  /**
   * How many columns standard output has: 0 when it is not a terminal (a file or a pipe takes lines
   * of any length). {@code $COLUMNS}, when set, wins over what the terminal says.
   */
  public static int stdoutColumns() {
    Facts f = front;
    if (f != null) {
      return f.columns();
    }
    if (!isTerminal(1)) {
      return 0;
    }
    Integer fromEnvironment = positive(System.getenv("COLUMNS"));
    if (fromEnvironment != null) {
      return fromEnvironment;
    }
    String size = stty("size");
    if (size != null) {
      String[] rowsColumns = size.split(" ", -1);
      Integer columns = rowsColumns.length == 2 ? positive(rowsColumns[1]) : null;
      if (columns != null) {
        return columns;
      }
    }
    return 0;
  }

  /** Runs {@code stty ARGS} on the controlling terminal; its output, or null if it failed. */
  public static String stty(String... args) {
    String[] command = new String[args.length + 1];
    command[0] = "stty";
    System.arraycopy(args, 0, command, 1, args.length);
    try {
      Process p =
          new ProcessBuilder(command)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/tty")))
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(5, TimeUnit.SECONDS) || p.exitValue() != 0) {
        return null;
      }
      return new String(out, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private static Integer positive(String text) {
    if (text == null || text.isBlank()) {
      return null;
    }
    try {
      int n = Integer.parseInt(text.strip());
      return n > 0 ? n : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
