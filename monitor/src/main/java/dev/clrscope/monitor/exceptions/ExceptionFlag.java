package dev.clrscope.monitor.exceptions;

import java.util.ArrayList;
import java.util.List;

/**
 * The bits of ExceptionThrown_V1's ExceptionFlags (ClrEtwAll.man's ExceptionThrownFlagsMap). None
 * says "unhandled": the event is raised when an exception is thrown, before the runtime knows
 * whether anything will catch it.
 */
public enum ExceptionFlag {
  /** The exception has an inner exception. */
  HAS_INNER_EXCEPTION(0x01, "HasInnerException"),
  /** Thrown while another exception was being dispatched (in a finally or filter). */
  NESTED(0x02, "Nested"),
  /** A {@code throw;} of an exception that was caught. */
  RETHROWN(0x04, "ReThrown"),
  /** A corrupted-state exception (an access violation and the like). */
  CORRUPTED_STATE(0x08, "CorruptedState"),
  /** The thrown object derives from System.Exception (every managed exception does). */
  CLS_COMPLIANT(0x10, "CLSCompliant");

  private final int bit;
  private final String label;

  ExceptionFlag(int bit, String label) {
    this.bit = bit;
    this.label = label;
  }

  /** The flag's name as the manifest spells it. */
  public String label() {
    return label;
  }

  /** The names of the bits set in {@code flags}; unknown bits as {@code 0x...}. */
  public static List<String> labels(int flags) {
    List<String> names = new ArrayList<>();
    int rest = flags;
    for (ExceptionFlag f : values()) {
      if ((flags & f.bit) != 0) {
        names.add(f.label);
        rest &= ~f.bit;
      }
    }
    if (rest != 0) {
      names.add("0x" + Integer.toHexString(rest));
    }
    return names;
  }
}
