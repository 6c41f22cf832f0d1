package dev.clrscope.ipc.discovery;

/**
 * A process id as a user writes it ({@code -p 4242}, {@code ?pid=4242}): ASCII digits only, no sign
 * and no leading zero, from 1 to {@value #MAX}. {@code Long.parseLong} would take {@code +4242},
 * {@code 04242} and other scripts' digits ({@code ٤٢}) for the same process.
 */
public final class ProcessId {
  /** The largest pid written anywhere (Linux's pid_max is at most 4,194,304). */
  public static final long MAX = Integer.MAX_VALUE;

  private ProcessId() {}

  /**
   * The pid {@code text} writes.
   *
   * @throws IllegalArgumentException saying what a pid is and what was given
   */
  public static long parse(String text) {
    int n = text.length();
    boolean digits = n > 0 && n <= 10 && text.charAt(0) != '0';
    for (int i = 0; digits && i < n; i++) {
      char c = text.charAt(i);
      digits = c >= '0' && c <= '9';
    }
    long pid = digits ? Long.parseLong(text) : -1;
    if (pid < 1 || pid > MAX) {
      throw new IllegalArgumentException(
          "a process id is a number from 1 to " + MAX + " in digits 0-9, got '" + clip(text) + "'");
    }
    return pid;
  }

  private static String clip(String s) {
    String one = s.replaceAll("[\\p{Cntrl}]", " ");
    return one.length() > 40 ? one.substring(0, 40) + "..." : one;
  }
}
