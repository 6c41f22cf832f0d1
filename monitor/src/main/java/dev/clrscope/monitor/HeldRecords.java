package dev.clrscope.monitor;

import java.util.ArrayList;
import java.util.List;

/**
 * Records an analysis hands out, either at once (live: a row as it happens) or held until the
 * stream ends (a saved trace, whose rundown at its end names the methods its rows show). Each
 * record is a step that names and delivers it; the order is kept. Not thread-safe: the session's
 * reader thread uses it.
 */
public final class HeldRecords {
  private List<Runnable> held;

  /** Holds records from now on until {@link #release()}. */
  public void holdUntilEnd() {
    if (held == null) {
      held = new ArrayList<>();
    }
  }

  /** Hands a record out now, or holds it. */
  public void handOut(Runnable record) {
    if (held == null) {
      record.run();
    } else {
      held.add(record);
    }
  }

  /** Hands out every record held, in order: the stream has ended. */
  public void release() {
    if (held != null) {
      List<Runnable> now = held;
      held = new ArrayList<>();
      now.forEach(Runnable::run);
    }
  }
}
