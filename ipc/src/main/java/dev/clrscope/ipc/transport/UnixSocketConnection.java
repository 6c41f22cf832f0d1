package dev.clrscope.ipc.transport;

import dev.clrscope.ipc.ConnectionClosedException;
import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.EndpointAccessDeniedException;
import dev.clrscope.ipc.IpcTimeoutException;
import dev.clrscope.ipc.TargetNotFoundException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A connection over a Unix domain socket, through the JDK's own support (Java 16+). */
public final class UnixSocketConnection extends IpcConnection {
  private static final Logger log = LoggerFactory.getLogger(UnixSocketConnection.class);

  /**
   * The longest socket path the kernel accepts: {@code sun_path} is 108 bytes, one of them the NUL.
   */
  public static final int MAX_PATH_BYTES = 107;

  private final SocketChannel channel;

  private UnixSocketConnection(SocketChannel channel, String description) {
    super(description);
    this.channel = channel;
  }

  /** Wraps an accepted channel (reverse connect). */
  public static UnixSocketConnection accepted(SocketChannel channel, String description) {
    return new UnixSocketConnection(channel, description);
  }

  /**
   * Connects to a socket. A path longer than the kernel's limit is reached through a short symbolic
   * link in a private directory, since connect() follows links while sun_path cannot hold the path.
   */
  public static UnixSocketConnection connect(Path socket, Duration timeout) {
    if (!Files.exists(socket)) {
      throw new TargetNotFoundException(
          "the diagnostic socket " + socket + " does not exist: has the process exited?");
    }
    if (socket.toString().getBytes(StandardCharsets.UTF_8).length <= MAX_PATH_BYTES) {
      return open(socket, socket, timeout);
    }
    Path dir = null;
    Path link = null;
    try {
      dir =
          Files.createTempDirectory(
              Path.of("/tmp"),
              "clrscope-",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      link = Files.createSymbolicLink(dir.resolve("s"), socket);
      log.debug(
          "{} is longer than the {}-byte limit: connecting through the link {}",
          socket,
          MAX_PATH_BYTES,
          link);
      return open(link, socket, timeout);
    } catch (IOException e) {
      throw new DiagnosticsException(
          "the socket path "
              + socket
              + " is longer than the "
              + MAX_PATH_BYTES
              + "-byte limit, and no short link to it could be made in /tmp: "
              + e.getMessage(),
          e);
    } finally {
      try {
        if (link != null) {
          Files.deleteIfExists(link);
        }
        if (dir != null) {
          Files.deleteIfExists(dir);
        }
      } catch (IOException ignored) {
        // A leftover empty private directory in /tmp is harmless.
      }
    }
  }

  private static UnixSocketConnection open(Path connectPath, Path socket, Duration timeout) {
    SocketChannel channel = null;
    try {
      channel = SocketChannel.open(StandardProtocolFamily.UNIX);
      UnixSocketConnection connection = new UnixSocketConnection(channel, socket.toString());
      connection.setDeadline(timeout, "the connection to be accepted");
      try {
        channel.connect(UnixDomainSocketAddress.of(connectPath));
      } finally {
        connection.clearDeadline();
      }
      log.debug("connected to {}", socket);
      return connection;
    } catch (ClosedChannelException e) {
      log.debug("connecting to {} timed out after {} ms", socket, timeout.toMillis());
      throw new IpcTimeoutException(
          "timed out connecting to " + socket + " after " + timeout.toMillis() + " ms");
    } catch (IOException e) {
      closeQuietly(channel);
      log.debug("connecting to {} failed: {}", socket, e.toString());
      throw connectFailure(socket, e);
    }
  }

  private static DiagnosticsException connectFailure(Path socket, IOException e) {
    String message = String.valueOf(e.getMessage());
    if (message.contains("Permission denied") || message.contains("Operation not permitted")) {
      String owner = SocketOwnership.describeOwner(socket);
      String advice;
      if (owner == null) {
        advice = "run clrscope as the user that started the target, or as root";
      } else if (owner.equals("root")) {
        advice = "run clrscope as root (for example with sudo)";
      } else {
        advice =
            "run clrscope as " + owner + " (for example with sudo -u " + owner + "), or as root";
      }
      return new EndpointAccessDeniedException(
          "permission denied on "
              + socket
              + (owner == null ? "" : " (owned by " + owner + ")")
              + ": "
              + advice,
          e);
    }
    if (message.contains("Connection refused")) {
      return new TargetNotFoundException(
          "nothing is listening on "
              + socket
              + ": the socket is left over from a process that has exited");
    }
    if (message.contains("No such file")) {
      return new TargetNotFoundException(
          "the diagnostic socket " + socket + " disappeared: has the process exited?");
    }
    return new ConnectionClosedException("could not connect to " + socket + ": " + message, e);
  }

  private static void closeQuietly(SocketChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // Already failing; the first error is the one to report.
      }
    }
  }

  @Override
  protected int readRaw(byte[] buffer, int offset, int len) throws IOException {
    try {
      return channel.read(ByteBuffer.wrap(buffer, offset, len));
    } catch (ClosedChannelException e) {
      return -1;
    }
  }

  @Override
  protected void writeRaw(byte[] buffer, int offset, int len) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(buffer, offset, len);
    while (b.hasRemaining()) {
      channel.write(b);
    }
  }

  @Override
  protected void abort() {
    closeQuietly(channel);
  }
}
