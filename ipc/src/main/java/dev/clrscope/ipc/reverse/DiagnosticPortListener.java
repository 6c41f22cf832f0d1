package dev.clrscope.ipc.reverse;

import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.IpcTimeoutException;
import dev.clrscope.ipc.launch.RunDirectory;
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
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A diagnostic port in listen mode: runtimes started with {@code
 * DOTNET_DiagnosticPorts=PATH,connect} connect to it, advertise themselves, and then take one
 * command per connection (reconnecting after each).
 */
public final class DiagnosticPortListener implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DiagnosticPortListener.class);

  private static final Set<PosixFilePermission> OWNER_ONLY_DIR =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> OWNER_ONLY_SOCKET =
      PosixFilePermissions.fromString("rw-------");

  /** Where private ports are made. */
  private static final Path TMP = Path.of("/tmp");

  /** Numbers the private directories sockets are bound in, unique within this process. */
  private static final AtomicLong STAGING = new AtomicLong();

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
      Path dir = RunDirectory.create(TMP, RunDirectory.Kind.PORT);
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
      if (Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
        if (!Files.readAttributes(socket, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
            .isOther()) {
          // Only a leftover socket may be replaced, never a file or directory the user named.
          throw new DiagnosticsException(
              socket + " exists and is not a socket: choose another --diagnostic-port path");
        }
        removeIfStale(socket);
      }
      return new DiagnosticPortListener(socket, null, bindOwnerOnly(socket));
    } catch (IOException e) {
      throw new DiagnosticsException("could not listen on " + socket + ": " + e.getMessage(), e);
    }
  }

  /**
   * Binds a listening socket at {@code socket} that only its owner can connect to, whatever the
   * umask. A bound socket listens at once, so its mode cannot be set before anyone can connect: it
   * is bound inside a fresh private (0700) directory beside {@code socket}, made 0600 there, then
   * renamed into place.
   *
   * <pre>
   *   PARENT/.clrscope-NNNN/  (0700)  bind "s", chmod 0600
   *   PARENT/.clrscope-NNNN/s  --rename-->  PARENT/NAME ; rmdir .clrscope-NNNN
   * </pre>
   *
   * Only when that private path would exceed the socket path limit is the socket bound in place and
   * made 0600 at once.
   */
  private static ServerSocketChannel bindOwnerOnly(Path socket) throws IOException {
    Path parent = socket.toAbsolutePath().getParent();
    Path privateDir =
        parent.resolve(
            ".clrscope-" + ProcessHandle.current().pid() + "-" + STAGING.incrementAndGet());
    Path staged = privateDir.resolve("s");
    if (staged.toString().getBytes(StandardCharsets.UTF_8).length
        > UnixSocketConnection.MAX_PATH_BYTES) {
      ServerSocketChannel server = bindChannel(socket);
      Files.setPosixFilePermissions(socket, OWNER_ONLY_SOCKET);
      return server;
    }
    Files.createDirectory(privateDir, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR));
    ServerSocketChannel server = null;
    try {
      server = bindChannel(staged);
      Files.setPosixFilePermissions(staged, OWNER_ONLY_SOCKET);
      Files.move(staged, socket, StandardCopyOption.ATOMIC_MOVE);
      return server;
    } catch (IOException | RuntimeException e) {
      if (server != null) {
        server.close();
      }
      Files.deleteIfExists(staged);
      throw e;
    } finally {
      Files.deleteIfExists(privateDir);
    }
  }

  /**
   * Removes a socket left over from an earlier run: one that refuses connections and belongs to the
   * user running clrscope. Anything else (a live listener, another user's socket, one that cannot
   * be probed) is kept, and is an error that names its owner.
   */
  private static void removeIfStale(Path socket) throws IOException {
    String refusal;
    try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      probe.connect(UnixDomainSocketAddress.of(socket));
      throw new DiagnosticsException(
          socket + " is in use by another listener: choose another --diagnostic-port path");
    } catch (IOException e) {
      refusal = String.valueOf(e.getMessage());
    }
    String ownerName = Files.getOwner(socket, LinkOption.NOFOLLOW_LINKS).getName();
    if (!refusal.contains("Connection refused")) {
      throw new DiagnosticsException(
          socket
              + " is a socket of "
              + ownerName
              + " that clrscope cannot probe ("
              + refusal
              + "): it may be in use; choose another --diagnostic-port path");
    }
    if (!ownerName.equals(System.getProperty("user.name"))) {
      throw new DiagnosticsException(
          socket
              + " is a leftover socket of "
              + ownerName
              + ": only its owner may replace it; remove it as "
              + ownerName
              + ", or choose another --diagnostic-port path");
    }
    // Nothing accepts there, and it is ours: a leftover from a run that did not clean up.
    log.debug("replacing the leftover socket {}: nothing accepts on it ({})", socket, refusal);
    Files.delete(socket);
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
