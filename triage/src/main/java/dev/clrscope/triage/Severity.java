package dev.clrscope.triage;

import java.util.Locale;

/** How bad a finding is, most severe first; {@code --fail-on} compares against it. */
public enum Severity {
  /** The process cannot go on as it is: a deadlock, a crash, a starved thread pool. */
  CRITICAL,
  /** Something is broken and hurts now: threads blocked on tasks, a blocked finalizer. */
  ERROR,
  /** Something costs memory or time and will hurt: a leak suspect, heap waste, a busy pool. */
  WARNING,
  /** Worth knowing, not wrong by itself: an exception a thread last threw. */
  INFO;

  /** {@code critical}, {@code error}, ... as every format prints it. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether this is at least as severe as {@code other}. */
  public boolean atLeast(Severity other) {
    return compareTo(other) <= 0;
  }

  /**
   * The severity named (any case).
   *
   * @throws IllegalArgumentException naming the severities, when it is none of them
   */
  public static Severity parse(String text) {
    for (Severity s : values()) {
      if (s.label().equalsIgnoreCase(text.strip())) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "no severity '" + text + "': give critical, error, warning or info");
  }
}
