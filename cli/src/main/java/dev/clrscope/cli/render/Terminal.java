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
   * Whether stdin and stderr are terminals, and what stdout is ({@link #stdoutSize}).
   *
   * @param stdout whether it is a terminal and its size
   */
  public record Facts(boolean stdin, Size stdout, boolean stderr) {
    /** What this process's own streams are. */
    public static Facts ofThisProcess() {
      return new Facts(isTerminal(0), stdoutSize(), isTerminal(2));
    }
  }

  /**
   * Answers {@link #isTerminal} for stdin, stdout and stderr and {@link #stdoutSize} from {@code
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
      return fd == 0 ? f.stdin() : fd == 1 ? f.stdout().terminal() : f.stderr();
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
    return stdoutSize().columns();
  }

  /**
   * What standard output is: a terminal or not, and its size.
   *
   * @param terminal whether it is a terminal (a view may be redrawn in place there)
   * @param rows how many lines it has, 0 when not known (or not a terminal)
   * @param columns how many columns it has, 0 when not known (or not a terminal)
   */
  public record Size(boolean terminal, int rows, int columns) {
    /** What is not a terminal: no limit. */
    public static final Size NONE = new Size(false, 0, 0);

    /** A terminal {@code columns} wide (0: none, no limit), of no known height. */
    public static Size ofWidth(int columns) {
      return columns > 0 ? new Size(true, 0, columns) : NONE;
    }
  }

  /**
   * Whether standard output is a terminal, and its size: {@code $LINES} and {@code $COLUMNS}, when
   * set, win over what the terminal says.
   */
  public static Size stdoutSize() {
    Facts f = front;
    if (f != null) {
      return f.stdout();
    }
    if (!isTerminal(1)) {
      return Size.NONE;
    }
    Integer rows = positive(System.getenv("LINES"));
    Integer columns = positive(System.getenv("COLUMNS"));
    if (rows == null || columns == null) {
      String said = stty("size");
      String[] rowsColumns = said == null ? new String[0] : said.split(" ", -1);
      if (rowsColumns.length == 2) {
        rows = rows != null ? rows : positive(rowsColumns[0]);
        columns = columns != null ? columns : positive(rowsColumns[1]);
      }
    }
    return new Size(true, rows == null ? 0 : rows, columns == null ? 0 : columns);
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
