package dev.clrscope.dac;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A core opened before the command that reads it has been parsed: the DAC process knows the file
 * from the command's words, and opening it (the ELF core, the DAC found and loaded, the runtime
 * checked) takes as long as parsing the command does, on the core that parsing leaves idle. The
 * command's own {@link DacSession#openCore} takes it when it asks for that file with options that
 * find the same DAC, and waits for it if it is not open yet; otherwise it is closed and the file is
 * opened as asked.
 *
 * <p>Opened ahead, a core's DAC is looked for only where no download is needed (the runtime
 * directory and the cache), with the default cache: what the command would find first in any case.
 * Its notes (a DAC passed over, and why) are kept and said only if the command takes it.
 */
final class EarlyCore {
  private static final AtomicReference<EarlyCore> PENDING = new AtomicReference<>();

  private final Path core;
  private final DacOptions options;
  private final List<String> notes = new ArrayList<>();
  private final Thread thread;
  private DacSession session;

  private EarlyCore(Path core) {
    this.core = core;
    this.options = DacOptions.defaults().withSymbolServer(null).withNotes(this::note);
    this.thread = new Thread(this::open, "clrscope-dac early " + core.getFileName());
    thread.setDaemon(true);
  }

  /** Starts opening {@code core}; one opened before and not taken is closed. */
  static void start(Path core) {
    EarlyCore e = new EarlyCore(core);
    drop(PENDING.getAndSet(e));
    e.thread.start();
  }

  /** Closes a core opened ahead that no command took. */
  static void dropPending() {
    drop(PENDING.getAndSet(null));
  }

  /**
   * The session of {@code core} opened ahead, when it was and finds the DAC {@code asked} would,
   * its notes said to {@code asked}'s; else null (and one opened ahead is closed).
   */
  static DacSession take(Path core, DacOptions asked) {
    EarlyCore e = PENDING.getAndSet(null);
    if (e == null) {
      return null;
    }
    if (!e.core.equals(core)
        || asked.dac() != null
        || !Objects.equals(asked.cacheDir(), e.options.cacheDir())) {
      drop(e);
      return null;
    }
    e.await();
    if (e.session == null) {
      // Not opened (no DAC without a download, not a core): opened as asked, which says why.
      return null;
    }
    synchronized (e.notes) {
      e.notes.forEach(asked.notes());
    }
    return e.session;
  }

  private void note(String line) {
    synchronized (notes) {
      notes.add(line);
    }
  }

  private void open() {
    try {
      session = DacSession.openCore(core, options, false);
    } catch (RuntimeException | Error e) {
      // The command opens the file itself, and says what is wrong with it.
    }
  }

  private void await() {
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException ex) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static void drop(EarlyCore e) {
    if (e == null) {
      return;
    }
    // Closed on a thread of its own once open, so that no caller waits for a core it does not
    // want.
    Thread closing =
        new Thread(
            () -> {
              e.await();
              if (e.session != null) {
                e.session.close();
              }
            },
            "clrscope-dac early close");
    closing.setDaemon(true);
    closing.start();
  }
}
