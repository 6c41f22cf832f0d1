package dev.clrscope.ipc.reverse;

import dev.clrscope.ipc.IpcTimeoutException;
import dev.clrscope.ipc.client.ConnectionSource;
import dev.clrscope.ipc.transport.IpcConnection;
import java.time.Duration;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connections from one runtime that connects to our diagnostic port. The runtime reconnects after
 * every command, so each {@link #open} waits for its next advertisement; connections from other
 * runtimes on the same port are closed (they retry, and are someone else's business).
 */
public final class ReverseConnectionSource implements ConnectionSource {
  private static final Logger log = LoggerFactory.getLogger(ReverseConnectionSource.class);

  private final DiagnosticPortListener listener;
  private final UUID runtimeCookie;
  private IpcConnection pending;

  /**
   * A source for the runtime that sent {@code first}; {@code first}'s connection is used by the
   * first command.
   */
  public ReverseConnectionSource(DiagnosticPortListener listener, AdvertisedConnection first) {
    this.listener = listener;
    this.runtimeCookie = first.advertisement().runtimeCookie();
    this.pending = first.connection();
  }

  /** The cookie of the runtime this source talks to. */
  public UUID runtimeCookie() {
    return runtimeCookie;
  }

  @Override
  public synchronized IpcConnection open(Duration timeout) {
    if (pending != null) {
      IpcConnection c = pending;
      pending = null;
      return c;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new IpcTimeoutException(
            "the runtime did not reconnect to " + listener.socketPath() + ": has it exited?");
      }
      AdvertisedConnection next = listener.accept(Duration.ofNanos(left));
      if (next.advertisement().runtimeCookie().equals(runtimeCookie)) {
        return next.connection();
      }
      log.debug(
          "closed a connection from another runtime (pid {}, cookie {}) on {}",
          next.advertisement().pid(),
          next.advertisement().runtimeCookie(),
          listener.socketPath());
      next.connection().close();
    }
  }

  @Override
  public String describe() {
    return listener.socketPath().toString();
  }
}
