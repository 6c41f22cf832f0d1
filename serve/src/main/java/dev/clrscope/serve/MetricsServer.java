package dev.clrscope.serve;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of {@code serve}: {@code GET /metrics} (Prometheus text) and {@code GET /processes}
 * (JSON), on the JDK's own HTTP server. With a token, every request must carry it ({@code
 * Authorization: Bearer TOKEN}, compared in constant time): 401 without it, 403 with another. Any
 * other path is 404, any other method 405; every error is one line of JSON, {@code {"error":…}}.
 */
public final class MetricsServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MetricsServer.class);
  private static final JsonFactory JSON = new JsonFactory();

  private final HttpServer server;
  private final ExecutorService workers;
  private final FleetWatcher watcher;
  private final byte[] token;
  private final ArtifactCollector artifacts;
  private final boolean keepArtifacts;
  private final RuleEngine rules;

  /**
   * Binds {@code address} (port 0: any free port).
   *
   * @param token the bearer token every request must carry, or null for none (then the artifact
   *     endpoints are off)
   * @param artifacts the collector behind {@code POST /gcdump}, {@code /trace} and {@code /dump}
   * @param keepArtifacts whether a .gcdump or trace stays in the artifact directory once sent
   * @param rules the collection rules ({@code GET /rules}), or null for none
   * @throws IOException if the address cannot be bound
   */
  public MetricsServer(
      InetSocketAddress address,
      FleetWatcher watcher,
      String token,
      ArtifactCollector artifacts,
      boolean keepArtifacts,
      RuleEngine rules)
      throws IOException {
    this.watcher = watcher;
    this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
    this.artifacts = artifacts;
    this.keepArtifacts = keepArtifacts;
    this.rules = rules;
    this.server = HttpServer.create(address, 16);
    this.workers =
        Executors.newFixedThreadPool(
            // Two for scrapes while artifacts (two at most) are collected.
            4,
            r -> {
              Thread t = new Thread(r, "clrscope-serve-http");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(workers);
    server.createContext("/", this::handle);
  }

  /** Starts answering. */
  public void start() {
    server.start();
  }

  /** Where it listens (the port chosen when 0 was asked). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  private static final String ENDPOINTS =
      "there are GET /metrics, /processes, /rules and POST /gcdump, /trace, /dump";

  private void handle(HttpExchange x) throws IOException {
    // Not try-with-resources: its catch blocks would run after the exchange is closed, too late
    // to answer.
    try {
      String path = x.getRequestURI().getPath();
      boolean artifact = ARTIFACT_PATHS.contains(path);
      if (artifact && token == null) {
        error(
            x,
            403,
            "the artifact endpoints are off: start serve with --token-file FILE (a bearer token),"
                + " then send Authorization: Bearer TOKEN");
        return;
      }
      if (token != null && !authorized(x)) {
        return;
      }
      boolean known = path.equals("/metrics") || path.equals("/processes") || path.equals("/rules");
      if (!known && !artifact) {
        error(x, 404, "no such endpoint: " + path + " (" + ENDPOINTS + ")");
        return;
      }
      String method = x.getRequestMethod();
      if (artifact) {
        if (!method.equals("POST")) {
          x.getResponseHeaders().set("Allow", "POST");
          error(x, 405, path + " answers POST, not " + method);
          return;
        }
        artifact(x, path);
        return;
      }
      if (!method.equals("GET") && !method.equals("HEAD")) {
        x.getResponseHeaders().set("Allow", "GET, HEAD");
        error(x, 405, path + " answers GET, not " + method);
        return;
      }
      if (path.equals("/metrics")) {
        send(
            x,
            200,
            PrometheusText.CONTENT_TYPE,
            PrometheusText.render(watcher.metrics()).getBytes(StandardCharsets.UTF_8));
      } else if (path.equals("/rules")) {
        send(
            x,
            200,
            "application/json",
            rules == null ? "[]\n".getBytes(StandardCharsets.UTF_8) : rules.statusJson());
      } else {
        send(x, 200, "application/json", processes(watcher.processes()));
      }
    } catch (ArtifactProblem e) {
      error(x, e.status(), e.getMessage());
    } catch (RuntimeException e) {
      // A bug: the client gets a 500 and a line, the log the trace; the server goes on.
      log.error("{} {} failed", x.getRequestMethod(), x.getRequestURI(), e);
      error(x, 500, "internal error: " + e);
    } finally {
      x.close();
    }
  }

  private static final java.util.Set<String> ARTIFACT_PATHS =
      java.util.Set.of("/gcdump", "/trace", "/dump");

  /**
   * {@code POST /gcdump?pid=}, {@code /trace?pid=&duration=&profile=}, {@code /dump?pid=&type=}.
   */
  private void artifact(HttpExchange x, String path) throws IOException {
    ArtifactQuery q = ArtifactQuery.parse(x.getRequestURI().getRawQuery(), path);
    Artifact a =
        switch (path) {
          case "/gcdump" -> artifacts.gcdump(q.pid());
          case "/trace" -> artifacts.trace(q.pid(), q.duration(), q.profile());
          default -> artifacts.dump(q.pid(), q.dumpType());
        };
    if (path.equals("/dump")) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (JsonGenerator g = JSON.createGenerator(out)) {
        g.writeStartObject();
        g.writeStringField("path", a.file().toString());
        g.writeNumberField("bytes", a.bytes());
        g.writeNumberField("pid", a.pid());
        g.writeStringField("type", q.dumpType().name().toLowerCase(java.util.Locale.ROOT));
        g.writeEndObject();
      }
      out.write('\n');
      send(x, 200, "application/json", out.toByteArray());
      return;
    }
    try {
      x.getResponseHeaders().set("Content-Type", a.contentType());
      x.getResponseHeaders()
          .set("Content-Disposition", "attachment; filename=\"" + a.fileName() + "\"");
      if (keepArtifacts) {
        x.getResponseHeaders().set("X-Clrscope-Artifact", a.file().toString());
      }
      x.sendResponseHeaders(200, a.bytes());
      try (OutputStream o = x.getResponseBody()) {
        java.nio.file.Files.copy(a.file(), o);
      }
    } finally {
      if (!keepArtifacts) {
        java.nio.file.Files.deleteIfExists(a.file());
      }
    }
  }

  private boolean authorized(HttpExchange x) throws IOException {
    String header = x.getRequestHeaders().getFirst("Authorization");
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      x.getResponseHeaders().set("WWW-Authenticate", "Bearer");
      error(x, 401, "this server needs a bearer token (Authorization: Bearer TOKEN)");
      return false;
    }
    byte[] given = header.substring(7).strip().getBytes(StandardCharsets.UTF_8);
    if (!MessageDigest.isEqual(given, token)) {
      error(x, 403, "the bearer token is not this server's");
      return false;
    }
    return true;
  }

  private static byte[] processes(List<FleetWatcher.Watched> processes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartArray();
      for (FleetWatcher.Watched w : processes) {
        ProcessFacts p = w.process();
        g.writeStartObject();
        g.writeNumberField("pid", p.pid());
        g.writeStringField("name", p.name());
        g.writeStringField("runtimeVersion", p.runtimeVersion());
        g.writeStringField("commandLine", p.commandLine());
        if (w.problem() != null) {
          g.writeStringField("problem", w.problem());
        }
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    out.write('\n');
    return out.toByteArray();
  }

  private static void error(HttpExchange x, int status, String message) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("error", message);
      g.writeEndObject();
    }
    out.write('\n');
    send(x, status, "application/json", out.toByteArray());
  }

  private static void send(HttpExchange x, int status, String type, byte[] body)
      throws IOException {
    x.getResponseHeaders().set("Content-Type", type);
    boolean head = x.getRequestMethod().equals("HEAD");
    x.sendResponseHeaders(status, head ? -1 : body.length);
    if (!head) {
      try (OutputStream o = x.getResponseBody()) {
        o.write(body);
      }
    }
  }

  /** Stops answering (requests in flight are given two seconds). */
  @Override
  public void close() {
    server.stop(2);
    workers.shutdownNow();
  }
}
