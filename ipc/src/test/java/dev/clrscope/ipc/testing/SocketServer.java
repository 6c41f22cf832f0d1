package dev.clrscope.ipc.testing;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A tiny Unix-socket server for transport tests: one thread, one connection at a time, each handled
 * by a {@link Handler}. It speaks only the framing it is told to; it is not a fake runtime.
 */
public final class SocketServer implements AutoCloseable {
  /** Handles one accepted connection. */
  @FunctionalInterface
  public interface Handler {
    void handle(SocketChannel channel) throws Exception;
  }

  private final ServerSocketChannel server;
  private final Thread thread;
  private final List<SocketChannel> held = new ArrayList<>();
  private final CompletableFuture<Void> done = new CompletableFuture<>();

  private SocketServer(ServerSocketChannel server, int connections, Handler handler) {
    this.server = server;
    this.thread =
        new Thread(
            () -> {
              try {
                for (int i = 0; i < connections; i++) {
                  SocketChannel ch = server.accept();
                  synchronized (held) {
                    held.add(ch);
                  }
                  handler.handle(ch);
                }
                done.complete(null);
              } catch (Throwable t) {
                done.completeExceptionally(t);
              }
            },
            "test-socket-server");
    thread.setDaemon(true);
    thread.start();
  }

  /** Listens on {@code path} and serves {@code connections} connections with {@code handler}. */
  public static SocketServer start(Path path, int connections, Handler handler) throws IOException {
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(path));
    return new SocketServer(server, connections, handler);
  }

  /** Waits for the handlers to finish, rethrowing what they threw (assertions included). */
  public void await() throws Exception {
    try {
      done.get(5, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof Exception ex) {
        throw ex;
      }
      throw new AssertionError(e.getCause());
    }
  }

  /** Reads exactly {@code n} bytes, or throws at end of stream. */
  public static byte[] readExactly(SocketChannel ch, int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n);
    while (b.hasRemaining()) {
      if (ch.read(b) < 0) {
        throw new IOException("end of stream after " + b.position() + " of " + n + " bytes");
      }
    }
    return b.array();
  }

  /** Writes all of {@code bytes}. */
  public static void writeAll(SocketChannel ch, byte[] bytes) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    while (b.hasRemaining()) {
      ch.write(b);
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    synchronized (held) {
      for (SocketChannel ch : held) {
        ch.close();
      }
    }
    thread.interrupt();
  }
}
