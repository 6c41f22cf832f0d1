package dev.clrscope.ipc.reverse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.IpcTimeoutException;
import dev.clrscope.ipc.codec.IpcFrames;
import dev.clrscope.ipc.discovery.EndpointLocator;
import dev.clrscope.ipc.protocol.IpcCommand;
import dev.clrscope.ipc.testing.Hex;
import dev.clrscope.ipc.testing.SocketServer;
import dev.clrscope.ipc.transport.IpcConnection;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiagnosticPortListenerTest {
  private static final Duration LIMIT = Duration.ofSeconds(10);
  private static final UUID COOKIE = UUID.fromString("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");

  @TempDir Path dir;

  /**
   * A client that connects like a runtime would, writes {@code first}, then serves {@code then}.
   */
  private static CompletableFuture<byte[]> runtime(
      Path socket, byte[] first, int readBack, byte[] then) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            SocketServer.writeAll(ch, first);
            byte[] got = SocketServer.readExactly(ch, readBack);
            SocketServer.writeAll(ch, then);
            return got;
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
  }

  private static byte[] advert(UUID cookie, long pid) {
    return Hex.concat(
        "ADVR_V1\0".getBytes(StandardCharsets.US_ASCII),
        dev.clrscope.ipc.codec.GuidLayout.toBytes(cookie),
        Hex.u64(pid),
        Hex.u16(0));
  }

  @Test
  void acceptReadsTheAdvertisementAndHandsOverTheConnection() throws Exception {
    Path socket = dir.resolve("port");
    try (DiagnosticPortListener listener = DiagnosticPortListener.bind(socket)) {
      assertThat(listener.socketPath()).isEqualTo(socket);
      byte[] reply = Hex.concat(Hex.header(24, 0xFF, 0x00), Hex.u32(0));
      CompletableFuture<byte[]> client =
          runtime(socket, Hex.bytes(AdvertisementTest.ADVERT_HEX), 20, reply);
      assertTimeoutPreemptively(
          LIMIT,
          () -> {
            AdvertisedConnection ac = listener.accept(Duration.ofSeconds(5));
            assertThat(ac.advertisement()).isEqualTo(new Advertisement(COOKIE, 12345));
            try (IpcConnection c = ac.connection()) {
              IpcFrames.writeRequest(c, IpcCommand.RESUME_RUNTIME, new byte[0]);
              assertThat(IpcFrames.readReply(c, IpcCommand.RESUME_RUNTIME)).hasSize(4);
            }
            assertThat(Hex.of(client.get(5, TimeUnit.SECONDS)))
                .isEqualTo("44 4f 54 4e 45 54 5f 49 50 43 5f 56 31 00 14 00 04 01 00 00");
          });
    }
    assertThat(socket).doesNotExist();
  }

  @Test
  void acceptTimesOutWhenNoRuntimeConnects() {
    Path socket = dir.resolve("port");
    try (DiagnosticPortListener listener = DiagnosticPortListener.bind(socket)) {
      assertTimeoutPreemptively(
          LIMIT,
          () -> {
            long start = System.nanoTime();
            assertThatThrownBy(() -> listener.accept(Duration.ofMillis(300)))
                .isInstanceOf(IpcTimeoutException.class)
                .hasMessageContaining("no .NET runtime connected to " + socket);
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                .isBetween(Duration.ofMillis(250), Duration.ofSeconds(3));
          });
    }
  }

  @Test
  void acceptSkipsAClientThatIsNotARuntime() throws Exception {
    Path socket = dir.resolve("port");
    try (DiagnosticPortListener listener = DiagnosticPortListener.bind(socket)) {
      byte[] garbage = new byte[34];
      java.util.Arrays.fill(garbage, (byte) 'x');
      CompletableFuture<Void> both =
          CompletableFuture.runAsync(
              () -> {
                try {
                  try (SocketChannel bad = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                    bad.connect(UnixDomainSocketAddress.of(socket));
                    SocketServer.writeAll(bad, garbage);
                    // The listener drops it: reading sees the end of the stream.
                    assertThat(bad.read(java.nio.ByteBuffer.allocate(1))).isEqualTo(-1);
                  }
                  try (SocketChannel good = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                    good.connect(UnixDomainSocketAddress.of(socket));
                    SocketServer.writeAll(good, advert(COOKIE, 7));
                    good.read(java.nio.ByteBuffer.allocate(1));
                  }
                } catch (java.io.IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      assertTimeoutPreemptively(
          LIMIT,
          () -> {
            AdvertisedConnection ac = listener.accept(Duration.ofSeconds(5));
            assertThat(ac.advertisement().pid()).isEqualTo(7);
            ac.connection().close();
            both.get(5, TimeUnit.SECONDS);
          });
    }
  }

  @Test
  void bindReplacesAStaleSocketFile() throws Exception {
    Path socket = dir.resolve("port");
    try (ServerSocketChannel old = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      old.bind(UnixDomainSocketAddress.of(socket));
    }
    assertThat(socket).exists();
    try (DiagnosticPortListener listener = DiagnosticPortListener.bind(socket)) {
      CompletableFuture<byte[]> client = runtime(socket, advert(COOKIE, 99), 0, new byte[0]);
      assertTimeoutPreemptively(
          LIMIT,
          () -> {
            AdvertisedConnection ac = listener.accept(Duration.ofSeconds(5));
            assertThat(ac.advertisement().pid()).isEqualTo(99);
            ac.connection().close();
            client.get(5, TimeUnit.SECONDS);
          });
    }
  }

  @Test
  void bindMakesTheSocketOwnerOnlyAndLeavesNothingBeside() throws Exception {
    Path socket = dir.resolve("port");
    try (DiagnosticPortListener listener = DiagnosticPortListener.bind(socket)) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)))
          .isEqualTo("rw-------");
      try (var entries = Files.list(dir)) {
        assertThat(entries).containsExactly(socket);
      }
      CompletableFuture<byte[]> client = runtime(socket, advert(COOKIE, 7), 0, new byte[0]);
      assertTimeoutPreemptively(
          LIMIT,
          () -> {
            AdvertisedConnection ac = listener.accept(Duration.ofSeconds(5));
            assertThat(ac.advertisement().pid()).isEqualTo(7);
            ac.connection().close();
            client.get(5, TimeUnit.SECONDS);
          });
    }
    assertThat(socket).doesNotExist();
  }

  @Test
  void bindKeepsALeftoverSocketOfAnotherUser() throws Exception {
    // The suite runs as root (as CI does): root may give the socket to another user.
    Path socket = dir.resolve("port");
    try (ServerSocketChannel old = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      old.bind(UnixDomainSocketAddress.of(socket));
    }
    Files.setOwner(
        socket,
        socket.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
    assertThatThrownBy(() -> DiagnosticPortListener.bind(socket))
        .isInstanceOf(DiagnosticsException.class)
        .hasMessage(
            socket
                + " is a leftover socket of nobody: only its owner may replace it; remove it as"
                + " nobody, or choose another --diagnostic-port path");
    assertThat(socket).exists();
  }

  @Test
  void bindRefusesASocketInUse() throws Exception {
    Path socket = dir.resolve("port");
    try (DiagnosticPortListener first = DiagnosticPortListener.bind(socket)) {
      assertThatThrownBy(() -> DiagnosticPortListener.bind(socket))
          .isInstanceOf(DiagnosticsException.class)
          .hasMessage(
              socket + " is in use by another listener: choose another --diagnostic-port path");
      assertThat(first.socketPath()).exists();
    }
  }

  @Test
  void bindNeverDeletesARegularFile() throws Exception {
    Path file = dir.resolve("notes.txt");
    Files.writeString(file, "keep me");
    assertThatThrownBy(() -> DiagnosticPortListener.bind(file))
        .isInstanceOf(DiagnosticsException.class)
        .hasMessageContaining("is not a socket");
    assertThat(file).hasContent("keep me");
    Path sub = Files.createDirectory(dir.resolve("sub"));
    assertThatThrownBy(() -> DiagnosticPortListener.bind(sub))
        .isInstanceOf(DiagnosticsException.class);
    assertThat(sub).isDirectory();
  }

  @Test
  void bindRefusesAPathOverTheLimit() {
    Path longPath = dir.resolve("x".repeat(120));
    assertThatThrownBy(() -> DiagnosticPortListener.bind(longPath))
        .isInstanceOf(DiagnosticsException.class)
        .hasMessageContaining("limited to 107 bytes")
        .hasMessageContaining("choose a shorter path");
  }

  @Test
  void bindInAMissingDirectoryFailsWithThePath() {
    Path socket = dir.resolve("no/such/dir/port");
    assertThatThrownBy(() -> DiagnosticPortListener.bind(socket))
        .isInstanceOf(DiagnosticsException.class)
        .hasMessageContaining("could not listen on " + socket);
  }

  @Test
  void privatePortLivesInAnOwnerOnlyDirectoryRemovedOnClose() throws Exception {
    Path socket;
    Path parent;
    try (DiagnosticPortListener listener = DiagnosticPortListener.createPrivate()) {
      socket = listener.socketPath();
      parent = socket.getParent();
      assertThat(socket).exists();
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(parent)))
          .isEqualTo("rwx------");
    }
    assertThat(socket).doesNotExist();
    assertThat(parent).doesNotExist();
  }

  @Test
  void reverseSourceUsesTheFirstConnectionThenWaitsForTheSameRuntime() throws Exception {
    Path socket = dir.resolve("port");
    UUID other = UUID.randomUUID();
    try (DiagnosticPortListener listener = DiagnosticPortListener.bind(socket)) {
      CompletableFuture<byte[]> first = runtime(socket, advert(COOKIE, 1), 0, new byte[0]);
      assertTimeoutPreemptively(
          LIMIT,
          () -> {
            AdvertisedConnection ac = listener.accept(Duration.ofSeconds(5));
            ReverseConnectionSource source = new ReverseConnectionSource(listener, ac);
            assertThat(source.runtimeCookie()).isEqualTo(COOKIE);
            assertThat(source.describe()).isEqualTo(socket.toString());
            assertThat(source.open(Duration.ofSeconds(1))).isSameAs(ac.connection());
            ac.connection().close();
            first.get(5, TimeUnit.SECONDS);

            // Another runtime advertises first; it is dropped in favour of ours.
            CompletableFuture<Void> later =
                CompletableFuture.runAsync(
                    () -> {
                      try {
                        runtime(socket, advert(other, 2), 0, new byte[0]).get(5, TimeUnit.SECONDS);
                        runtime(socket, advert(COOKIE, 1), 0, new byte[0]).get(5, TimeUnit.SECONDS);
                      } catch (Exception e) {
                        throw new IllegalStateException(e);
                      }
                    });
            try (IpcConnection next = source.open(Duration.ofSeconds(5))) {
              assertThat(next.description()).isEqualTo(socket.toString());
            }
            later.get(5, TimeUnit.SECONDS);

            assertThatThrownBy(() -> source.open(Duration.ofMillis(200)))
                .isInstanceOf(IpcTimeoutException.class);
          });
    }
  }

  /** A private port directory as a run makes it, its socket bound; left listening if asked. */
  private ServerSocketChannel port(String name, boolean keepListening, Duration age)
      throws Exception {
    Path d = Files.createDirectory(dir.resolve(name));
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(d.resolve("port")));
    if (!keepListening) {
      server.close(); // As a killed run leaves it: the file stays, nobody listens.
    }
    Files.setLastModifiedTime(d, FileTime.from(Instant.now().minus(age)));
    return server;
  }

  /**
   * Only the ports of killed runs go: old, this user's, nothing but a socket nobody listens on. A
   * run still listening, one just made, and a directory holding anything else stay.
   */
  @Test
  void aSweepRemovesOnlyTheOldPortsNobodyListensOn() throws Exception {
    Duration old = Duration.ofMinutes(5);
    port("clrscope-1", false, old);
    port("clrscope-2", false, old);
    try (ServerSocketChannel live = port("clrscope-3", true, old)) {
      port("clrscope-4", false, Duration.ZERO);
      port("clrscope-5", false, old);
      Files.writeString(dir.resolve("clrscope-5").resolve("notes"), "mine");
      Files.setLastModifiedTime(dir.resolve("clrscope-5"), FileTime.from(Instant.now().minus(old)));
      port("other-6", false, old);

      assertThat(dev.clrscope.ipc.launch.RunDirectory.sweep(dir, new EndpointLocator()))
          .isEqualTo(2);

      try (var left = Files.list(dir)) {
        assertThat(left.map(p -> p.getFileName().toString()))
            .containsExactlyInAnyOrder("clrscope-3", "clrscope-4", "clrscope-5", "other-6");
      }
      assertThat(live.isOpen()).isTrue();
    }
  }

  /**
   * Where the table of sockets cannot tell (another network namespace), a live listener is probed:
   * never blocking, even once its backlog is full because it is busy and accepts nothing, and never
   * taken for stale.
   */
  @Test
  void aProbeOfABusyListenerNeverBlocksAndKeepsIt() throws Exception {
    Path d = Files.createDirectory(dir.resolve("clrscope-busy"));
    try (ServerSocketChannel busy = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      busy.bind(UnixDomainSocketAddress.of(d.resolve("port")), 1);
      Files.setLastModifiedTime(d, FileTime.from(Instant.now().minus(Duration.ofMinutes(5))));
      EndpointLocator noTable =
          new EndpointLocator(Files.createDirectory(dir.resolve("no-proc")), false, "/tmp");

      assertTimeoutPreemptively(
          LIMIT,
          () -> {
            for (int i = 0; i < 20; i++) {
              assertThat(dev.clrscope.ipc.launch.RunDirectory.sweep(dir, noTable)).isZero();
            }
          });
      assertThat(d.resolve("port")).exists();
    }
  }
}
