package dev.clrscope.ipc.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.clrscope.ipc.ConnectionClosedException;
import dev.clrscope.ipc.IpcTimeoutException;
import dev.clrscope.ipc.TargetNotFoundException;
import dev.clrscope.ipc.codec.IpcFrames;
import dev.clrscope.ipc.protocol.IpcCommand;
import dev.clrscope.ipc.testing.Hex;
import dev.clrscope.ipc.testing.SocketServer;
import java.io.InputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnixSocketConnectionTest {
  private static final Duration LIMIT = Duration.ofSeconds(10);
  private static final String PROCESS_INFO_REQUEST =
      "44 4f 54 4e 45 54 5f 49 50 43 5f 56 31 00 14 00 04 00 00 00";

  @TempDir Path dir;

  @Test
  void requestAndReplyRoundTrip() throws Exception {
    Path socket = dir.resolve("s");
    byte[] reply = Hex.concat(Hex.header(28, 0xFF, 0x00), Hex.u64(4242));
    try (SocketServer server =
        SocketServer.start(
            socket,
            1,
            ch -> {
              assertThat(Hex.of(SocketServer.readExactly(ch, 20))).isEqualTo(PROCESS_INFO_REQUEST);
              // Reply in two pieces to exercise reassembly.
              SocketServer.writeAll(ch, java.util.Arrays.copyOf(reply, 9));
              Thread.sleep(20);
              SocketServer.writeAll(ch, java.util.Arrays.copyOfRange(reply, 9, reply.length));
            })) {
      assertTimeoutPreemptively(
          LIMIT,
          () -> {
            try (UnixSocketConnection c =
                UnixSocketConnection.connect(socket, Duration.ofSeconds(5))) {
              assertThat(c.description()).isEqualTo(socket.toString());
              IpcFrames.writeRequest(c, IpcCommand.PROCESS_INFO, new byte[0]);
              c.setDeadline(Duration.ofSeconds(5), "the reply");
              assertThat(IpcFrames.readReply(c, IpcCommand.PROCESS_INFO)).isEqualTo(Hex.u64(4242));
              c.clearDeadline();
            }
          });
      server.await();
    }
  }

  @Test
  void deadlineTurnsASilentTargetIntoATimeout() throws Exception {
    Path socket = dir.resolve("s");
    CountDownLatch release = new CountDownLatch(1);
    try (SocketServer server =
        SocketServer.start(socket, 1, ch -> release.await(10, TimeUnit.SECONDS))) {
      assertTimeoutPreemptively(
          LIMIT,
          () -> {
            try (UnixSocketConnection c =
                UnixSocketConnection.connect(socket, Duration.ofSeconds(5))) {
              IpcFrames.writeRequest(c, IpcCommand.PROCESS_INFO, new byte[0]);
              c.setDeadline(Duration.ofMillis(200), "the reply to ProcessInfo (0x0400)");
              long start = System.nanoTime();
              assertThatThrownBy(() -> IpcFrames.readReply(c, IpcCommand.PROCESS_INFO))
                  .isInstanceOf(IpcTimeoutException.class)
                  .hasMessage(
                      "timed out waiting for the reply to ProcessInfo (0x0400) from "
                          + socket
                          + "; is the target hung?");
              assertThat(Duration.ofNanos(System.nanoTime() - start))
                  .isBetween(Duration.ofMillis(150), Duration.ofSeconds(3));
            }
          });
      release.countDown();
      server.await();
    }
  }

  @Test
  void clearedDeadlineDoesNotFire() throws Exception {
    Path socket = dir.resolve("s");
    try (SocketServer server =
        SocketServer.start(
            socket,
            1,
            ch -> {
              Thread.sleep(300);
              SocketServer.writeAll(ch, Hex.bytes("01 02"));
            })) {
      assertTimeoutPreemptively(
          LIMIT,
          () -> {
            try (UnixSocketConnection c =
                UnixSocketConnection.connect(socket, Duration.ofSeconds(5))) {
              c.setDeadline(Duration.ofMillis(100), "x");
              c.clearDeadline();
              byte[] two = new byte[2];
              c.readFully(two, "two bytes");
              assertThat(Hex.of(two)).isEqualTo("01 02");
            }
          });
      server.await();
    }
  }

  @Test
  void peerClosingMidReplyIsConnectionClosed() throws Exception {
    Path socket = dir.resolve("s");
    try (SocketServer server =
        SocketServer.start(
            socket,
            1,
            ch -> {
              SocketServer.readExactly(ch, 20);
              SocketServer.writeAll(ch, Hex.concat(Hex.header(30, 0xFF, 0), Hex.bytes("aa bb")));
              ch.close();
            })) {
      assertTimeoutPreemptively(
          LIMIT,
          () -> {
            try (UnixSocketConnection c =
                UnixSocketConnection.connect(socket, Duration.ofSeconds(5))) {
              IpcFrames.writeRequest(c, IpcCommand.PROCESS_INFO, new byte[0]);
              assertThatThrownBy(() -> IpcFrames.readReply(c, IpcCommand.PROCESS_INFO))
                  .isInstanceOf(ConnectionClosedException.class)
                  .hasMessageContaining("after 2 of 10 bytes")
                  .hasMessageContaining("it may have exited");
            }
          });
      server.await();
    }
  }

  @Test
  void inputStreamReadsToTheEndOfTheSession() throws Exception {
    Path socket = dir.resolve("s");
    try (SocketServer server =
        SocketServer.start(
            socket,
            1,
            ch -> {
              SocketServer.writeAll(ch, "nettrace!".getBytes(StandardCharsets.US_ASCII));
              ch.close();
            })) {
      assertTimeoutPreemptively(
          LIMIT,
          () -> {
            try (UnixSocketConnection c =
                    UnixSocketConnection.connect(socket, Duration.ofSeconds(5));
                InputStream in = c.inputStream()) {
              assertThat(in.read(new byte[4], 0, 0)).isZero();
              assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII))
                  .isEqualTo("nettrace!");
              assertThat(in.read()).isEqualTo(-1);
            }
          });
      server.await();
    }
  }

  @Test
  void missingSocketIsTargetNotFound() {
    Path socket = dir.resolve("dotnet-diagnostic-1-2-socket");
    assertThatThrownBy(() -> UnixSocketConnection.connect(socket, Duration.ofSeconds(1)))
        .isInstanceOf(TargetNotFoundException.class)
        .hasMessageContaining(socket + " does not exist");
  }

  @Test
  void staleSocketFileIsTargetNotFoundLeftOver() throws Exception {
    Path socket = dir.resolve("stale");
    try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      s.bind(UnixDomainSocketAddress.of(socket));
    }
    assertThat(socket).exists();
    assertTimeoutPreemptively(
        LIMIT,
        () ->
            assertThatThrownBy(() -> UnixSocketConnection.connect(socket, Duration.ofSeconds(1)))
                .isInstanceOf(TargetNotFoundException.class)
                .hasMessage(
                    "nothing is listening on "
                        + socket
                        + ": the socket is left over from a process that has exited"));
  }

  @Test
  void pathLongerThan107BytesIsReachedThroughAShortLink() throws Exception {
    Path shortPath = dir.resolve("s");
    Path deep = dir;
    while (deep.toString().length() < 120) {
      deep = deep.resolve("a-rather-long-directory-name");
    }
    Files.createDirectories(deep);
    Path longPath = deep.resolve("dotnet-diagnostic-4242-123456-socket");
    assertThat(longPath.toString().getBytes(StandardCharsets.UTF_8).length)
        .isGreaterThan(UnixSocketConnection.MAX_PATH_BYTES);
    byte[] reply = Hex.concat(Hex.header(24, 0xFF, 0x00), Hex.u32(0));
    try (SocketServer server =
        SocketServer.start(
            shortPath,
            1,
            ch -> {
              assertThat(Hex.of(SocketServer.readExactly(ch, 20))).isEqualTo(PROCESS_INFO_REQUEST);
              SocketServer.writeAll(ch, reply);
            })) {
      // A bound socket keeps working when its file is renamed: put it at the long path.
      Files.move(shortPath, longPath);
      assertTimeoutPreemptively(
          LIMIT,
          () -> {
            try (UnixSocketConnection c =
                UnixSocketConnection.connect(longPath, Duration.ofSeconds(5))) {
              assertThat(c.description()).isEqualTo(longPath.toString());
              IpcFrames.writeRequest(c, IpcCommand.PROCESS_INFO, new byte[0]);
              assertThat(IpcFrames.readReply(c, IpcCommand.PROCESS_INFO)).hasSize(4);
            }
          });
      server.await();
    }
  }

  @Test
  void connectThatIsNeverAcceptedTimesOut() throws Exception {
    Path socket = dir.resolve("full");
    try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      s.bind(UnixDomainSocketAddress.of(socket), 1);
      // Fill the accept queue without ever accepting: further connects block.
      java.util.List<java.nio.channels.SocketChannel> queued = new java.util.ArrayList<>();
      try {
        for (int i = 0; i < 2; i++) {
          java.nio.channels.SocketChannel ch =
              java.nio.channels.SocketChannel.open(StandardProtocolFamily.UNIX);
          ch.connect(UnixDomainSocketAddress.of(socket));
          queued.add(ch);
        }
        assertTimeoutPreemptively(
            LIMIT,
            () -> {
              long start = System.nanoTime();
              assertThatThrownBy(() -> UnixSocketConnection.connect(socket, Duration.ofMillis(200)))
                  .isInstanceOf(IpcTimeoutException.class)
                  .hasMessage("timed out connecting to " + socket + " after 200 ms");
              assertThat(Duration.ofNanos(System.nanoTime() - start))
                  .isBetween(Duration.ofMillis(150), Duration.ofSeconds(3));
            });
      } finally {
        for (java.nio.channels.SocketChannel ch : queued) {
          ch.close();
        }
      }
    }
  }
}
