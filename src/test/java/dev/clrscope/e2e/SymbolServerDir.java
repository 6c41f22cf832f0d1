package dev.clrscope.e2e;

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

/**
 * A symbol server for the tests: the JDK's HTTP server serving a directory laid out by SSQP key
 * ({@code GET /symbols/KEY}), 404 for what it lacks, every request's path kept.
 */
final class SymbolServerDir implements AutoCloseable {
  private final HttpServer server;
  private final List<String> requests = new CopyOnWriteArrayList<>();

  /** Serves {@code store} on a free loopback port until closed. */
  SymbolServerDir(Path store) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/symbols/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          requests.add(path);
          Path file = store.resolve(path.substring("/symbols/".length()));
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
    server.start();
  }

  /** The server's URL, {@code http://127.0.0.1:PORT/symbols}. */
  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/symbols");
  }

  /** The paths asked for, in order. */
  List<String> requests() {
    return requests;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
