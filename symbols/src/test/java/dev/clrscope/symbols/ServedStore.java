package dev.clrscope.symbols;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A symbol server for the tests: the JDK's HTTP server serving a directory laid out by SSQP key
 * ({@code GET /symbols/KEY}), 404 for what it lacks, every request's path kept; a key under {@code
 * hang/} is never answered (until closed), one under {@code trickle/} answered a byte a second.
 */
final class ServedStore implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final CountDownLatch never = new CountDownLatch(1);
  private boolean stopped;

  ServedStore(Path store) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/symbols/",
        exchange -> {
          String key = exchange.getRequestURI().getPath().substring("/symbols/".length());
          requests.add(key);
          if (key.startsWith("trickle/")) {
            // Headers at once, then a byte a second of a long file, until closed.
            exchange.sendResponseHeaders(200, 1 << 20);
            try (OutputStream out = exchange.getResponseBody()) {
              while (!never.await(1, java.util.concurrent.TimeUnit.SECONDS)) {
                out.write('x');
                out.flush();
              }
            } catch (InterruptedException | IOException e) {
              // Closed, or the client gave up.
            }
            return;
          }
          if (key.startsWith("hang/")) {
            try {
              never.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          Path file = store.resolve(key);
          if (!file.normalize().startsWith(store) || !Files.isRegularFile(file)) {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
            return;
          }
          byte[] body = Files.readAllBytes(file);
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.setExecutor(executor);
    server.start();
  }

  /** {@code http://127.0.0.1:PORT/symbols}. */
  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/symbols");
  }

  /** The keys asked for, in order. */
  List<String> requests() {
    return requests;
  }

  /** Stops serving: the port then refuses connections. */
  @Override
  public void close() {
    never.countDown();
    if (!stopped) {
      stopped = true;
      server.stop(0);
      executor.shutdownNow();
    }
  }
}
