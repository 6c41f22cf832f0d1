package dev.clrscope.dac;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
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
  private final CompletableFuture<DacSession> session;

  private EarlyCore(Path core, boolean graph) {
    this.core = core;
    this.options = DacOptions.defaults().withSymbolServer(null).withNotes(this::note);
    this.session = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              DacSession s = open();
              session.complete(s);
              if (graph && s != null) {
                readGraph(s);
              }
            },
            "clrscope-dac early " + core.getFileName());
    t.setDaemon(true);
    t.start();
  }

  /**
   * Reads the heap's graph, kept by the session's heap view for the command: the command's calls
   * wait behind it on the owner thread. A failure is the command's to meet and say, when it reads
   * the graph itself.
   */
  private static void readGraph(DacSession s) {
    try {
      s.heap().snapshot();
    } catch (RuntimeException | Error e) {
      // The command reads it again, and says what is wrong.
    }
  }

  /**
   * Starts opening {@code core} (and reading its graph when {@code graph}); one opened before and
   * not taken is closed.
   */
  static void start(Path core, boolean graph) {
    drop(PENDING.getAndSet(new EarlyCore(core, graph)));
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
    if (!e.core.toAbsolutePath().normalize().equals(core.toAbsolutePath().normalize())
        || asked.dac() != null
        || !Objects.equals(asked.cacheDir(), e.options.cacheDir())) {
      drop(e);
      return null;
    }
    DacSession opened = e.session.join();
    if (opened == null) {
      // Not opened (no DAC without a download, not a core): opened as asked, which says why.
      return null;
    }
    synchronized (e.notes) {
      e.notes.forEach(asked.notes());
    }
    return opened;
  }

  private void note(String line) {
    synchronized (notes) {
      notes.add(line);
    }
  }

  /** The session, or null when the core could not be opened ahead. */
  private DacSession open() {
    try {
      return DacSession.openCore(core, options, false);
    } catch (RuntimeException | Error e) {
      // The command opens the file itself, and says what is wrong with it.
      return null;
    }
  }

  private static void drop(EarlyCore e) {
    if (e != null) {
      // Closed once open, on the thread that opens it: no caller waits for a core it does not want.
      e.session.thenAccept(
          s -> {
            if (s != null) {
              s.close();
            }
          });
    }
  }
}
