package dev.clrscope.cli.session;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * The JDK's signal handling, the one place that reaches for it ({@code sun.misc}: Java has no
 * public API for it): a named signal ({@code INT}, {@code TERM}) handled, ignored or given back to
 * the JVM's default, and the handling it had before put back. A signal this platform does not have
 * (Windows has no TERM) is left alone.
 */
public final class Signals {
  private Signals() {}

  /** How a signal was handled before {@link #handle} changed it. */
  public static final class Previous {
    private final Signal signal;
    private final SignalHandler handler;

    private Previous(Signal signal, SignalHandler handler) {
      this.signal = signal;
      this.handler = handler;
    }

    /** Handles the signal again as it was; nothing where it could not be handled. */
    public void restore() {
      if (signal != null) {
        Signal.handle(signal, handler);
      }
    }
  }

  /** Runs {@code onSignal} on each {@code name} signal from now on, instead of what ran before. */
  public static Previous handle(String name, Runnable onSignal) {
    Signal signal = signal(name);
    SignalHandler before = signal == null ? null : set(signal, sig -> onSignal.run());
    return before == null ? new Previous(null, null) : new Previous(signal, before);
  }

  /** {@code name} ignored from now on. */
  public static void ignore(String name) {
    Signal signal = signal(name);
    if (signal != null) {
      set(signal, SignalHandler.SIG_IGN);
    }
  }

  /** {@code name} handled as the JVM does by default from now on. */
  public static void reset(String name) {
    Signal signal = signal(name);
    if (signal != null) {
      set(signal, SignalHandler.SIG_DFL);
    }
  }

  private static Signal signal(String name) {
    try {
      return new Signal(name);
    } catch (IllegalArgumentException notHere) {
      return null;
    }
  }

  private static SignalHandler set(Signal signal, SignalHandler handler) {
    try {
      return Signal.handle(signal, handler);
    } catch (IllegalArgumentException reserved) {
      // One the JVM keeps for itself (QUIT with -Xrs): left as it is.
      return null;
    }
  }
}
