package dev.clrscope.ipc.reverse;

import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.IpcTimeoutException;
import dev.clrscope.ipc.transport.IpcConnection;
import dev.clrscope.ipc.transport.UnixSocketConnection;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A diagnostic port in listen mode: runtimes started with {@code
 * DOTNET_DiagnosticPorts=PATH,connect} connect to it, advertise themselves, and then take one
 * command per connection (reconnecting after each).
 */
public final class DiagnosticPortListener implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DiagnosticPortListener.class);

  private final Path socket;
  private final Path privateDir;
  private final ServerSocketChannel server;
  private final Selector selector;

  private DiagnosticPortListener(Path socket, Path privateDir, ServerSocketChannel server)
      throws IOException {
    this.socket = socket;
    this.privateDir = privateDir;
    this.server = server;
    server.configureBlocking(false);
    this.selector = Selector.open();
    server.register(selector, SelectionKey.OP_ACCEPT);
    log.debug("listening on the diagnostic port {}", socket);
  }

  /**
   * Listens on a fresh socket in a new private (0700) directory, so no other user can connect to it
   * or replace it.
   */
  public static DiagnosticPortListener createPrivate() {
    try {
      Path dir =
          Files.createTempDirectory(
              Path.of("/tmp"),
              "clrscope-",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      Path socket = dir.resolve("port");
      return new DiagnosticPortListener(socket, dir, bindChannel(socket));
    } catch (IOException e) {
      throw new DiagnosticsException(
          "could not create a diagnostic port in /tmp: " + e.getMessage(), e);
    }
  }

  /**
   * Listens on a socket path the user chose. A socket file left over from an earlier run (nothing
   * accepts on it) is replaced; one still in use is an error.
   */
  public static DiagnosticPortListener bind(Path socket) {
    int bytes = socket.toString().getBytes(StandardCharsets.UTF_8).length;
    if (bytes > UnixSocketConnection.MAX_PATH_BYTES) {
      throw new DiagnosticsException(
          "the diagnostic port path "
              + socket
              + " is "
              + bytes
              + " bytes long; Unix socket paths are limited to "
              + UnixSocketConnection.MAX_PATH_BYTES
              + " bytes: choose a shorter path");
    }
    try {
      if (Files.exists(socket, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        if (!Files.readAttributes(
                socket,
                java.nio.file.attribute.BasicFileAttributes.class,
                java.nio.file.LinkOption.NOFOLLOW_LINKS)
            .isOther()) {
          // Only a leftover socket may be replaced, never a file or directory the user named.
          throw new DiagnosticsException(
              socket + " exists and is not a socket: choose another --diagnostic-port path");
        }
        removeIfStale(socket);
      }
      return new DiagnosticPortListener(socket, null, bindChannel(socket));
    } catch (IOException e) {
      throw new DiagnosticsException("could not listen on " + socket + ": " + e.getMessage(), e);
    }
  }

  private static void removeIfStale(Path socket) throws IOException {
    try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      probe.connect(UnixDomainSocketAddress.of(socket));
      throw new DiagnosticsException(
          socket + " is in use by another listener: choose another --diagnostic-port path");
    } catch (IOException e) {
      // Nothing accepts there: a leftover from a run that did not clean up.
      log.debug(
          "replacing the leftover socket {}: nothing accepts on it ({})", socket, e.toString());
      Files.delete(socket);
    }
  }

  private static ServerSocketChannel bindChannel(Path socket) throws IOException {
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(socket));
    return server;
  }

  /** The socket path runtimes connect to. */
  public Path socketPath() {
    return socket;
  }

  /**
   * Waits for the next runtime connection and reads its advertisement.
   *
   * @throws IpcTimeoutException if none arrives in time
   */
  public AdvertisedConnection accept(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new IpcTimeoutException(
            "no .NET runtime connected to "
                + socket
                + " within "
                + (timeout.toMillis() < 1000
                    ? timeout.toMillis() + " ms"
                    : timeout.toSeconds() + " s"));
      }
      SocketChannel ch;
      try {
        selector.select(Math.max(1, left / 1_000_000));
        selector.selectedKeys().clear();
        ch = server.accept();
      } catch (IOException e) {
        throw new DiagnosticsException("accepting on " + socket + " failed: " + e.getMessage(), e);
      }
      if (ch == null) {
        continue;
      }
      IpcConnection c;
      try {
        ch.configureBlocking(true);
        c = UnixSocketConnection.accepted(ch, socket.toString());
      } catch (IOException e) {
        log.debug("dropped a connection on {}: {}", socket, e.toString());
        continue;
      }
      try {
        byte[] advert = new byte[Advertisement.SIZE];
        c.setDeadline(Duration.ofSeconds(5), "the runtime's advertisement");
        c.readFully(advert, "the runtime's advertisement");
        c.clearDeadline();
        Advertisement advertisement = Advertisement.decode(advert);
        log.debug(
            "the runtime of pid {} (cookie {}) connected to {}",
            advertisement.pid(),
            advertisement.runtimeCookie(),
            socket);
        return new AdvertisedConnection(advertisement, c);
      } catch (DiagnosticsException e) {
        // Something that is not a runtime (or a runtime that vanished): wait for the next.
        log.debug(
            "closed a connection on {} that sent no advertisement: {}", socket, e.getMessage());
        c.close();
      }
    }
  }

  /** Stops listening and removes the socket (and the private directory, if this made one). */
  @Override
  public void close() {
    log.debug("no longer listening on {}", socket);
    try {
      selector.close();
      server.close();
      Files.deleteIfExists(socket);
      if (privateDir != null) {
        Files.deleteIfExists(privateDir);
      }
    } catch (IOException e) {
      // Best effort: a leftover socket file is replaced on the next bind.
    }
  }
}
