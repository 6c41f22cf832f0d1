package dev.clrscope.ipc.session;

import java.util.Locale;

/**
 * EventPipe (and ETW) event levels, as the provider configuration of CollectTracing carries them:
 * an event is enabled when its level is at or below the provider's.
 */
public enum EventLevel {
  /** 0: events logged whatever the level. */
  LOG_ALWAYS(0, "logalways"),
  /** 1. */
  CRITICAL(1, "critical"),
  /** 2. */
  ERROR(2, "error"),
  /** 3. */
  WARNING(3, "warning"),
  /** 4: what most runtime events are written at. */
  INFORMATIONAL(4, "informational"),
  /** 5: everything. */
  VERBOSE(5, "verbose");

  private final int value;
  private final String label;

  EventLevel(int value, String label) {
    this.value = value;
    this.label = label;
  }

  /** The number on the wire. */
  public int value() {
    return value;
  }

  /** The lower-case name users write. */
  public String label() {
    return label;
  }

  /**
   * Parses a level as dotnet-trace does: a number (above 5 means Verbose) or a name, any case
   * ({@code info} for Informational).
   *
   * @throws IllegalArgumentException naming the accepted forms
   */
  public static EventLevel parse(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    if (!t.isEmpty() && t.chars().allMatch(Character::isDigit)) {
      int n;
      try {
        n = Integer.parseInt(t);
      } catch (NumberFormatException e) {
        n = VERBOSE.value; // more digits than an int: above 5 all the same
      }
      return values()[Math.min(n, VERBOSE.value)];
    }
    if (t.equals("info")) {
      return INFORMATIONAL;
    }
    for (EventLevel l : values()) {
      if (l.label.equals(t)) {
        return l;
      }
    }
    throw new IllegalArgumentException(
        "unknown level '"
            + text
            + "': use 0-5 or logalways, critical, error, warning, informational, verbose");
  }
}
