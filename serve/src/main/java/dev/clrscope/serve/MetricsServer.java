package dev.clrscope.serve;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of {@code serve}: {@code GET /metrics} (Prometheus text) and {@code GET /processes}
 * (JSON), on {@link HttpFront}. With a token, every request must carry it ({@code Authorization:
 * Bearer TOKEN}, compared in constant time): 401 without it, 403 with another. Any other path is
 * 404, any other method 405; every error is one line of JSON, {@code {"error":…}}.
 */
public final class MetricsServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MetricsServer.class);
  private static final JsonFactory JSON = new JsonFactory();

  private final HttpFront server;
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
    this(address, watcher, token, artifacts, keepArtifacts, rules, HttpFront.Limits.DEFAULT);
  }

  /** As above, with the limits clients are held to. */
  public MetricsServer(
      InetSocketAddress address,
      FleetWatcher watcher,
      String token,
      ArtifactCollector artifacts,
      boolean keepArtifacts,
      RuleEngine rules,
      HttpFront.Limits limits)
      throws IOException {
    this.watcher = watcher;
    this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
    this.artifacts = artifacts;
    this.keepArtifacts = keepArtifacts;
    this.rules = rules;
    this.workers =
        Executors.newFixedThreadPool(
            // Two for scrapes while artifacts (two at most) are collected; a request reaches a
            // worker only once it is whole, so a slow client holds none.
            4,
            r -> {
              Thread t = new Thread(r, "clrscope-serve-http");
              t.setDaemon(true);
              return t;
            });
    HttpFront.Handler handler =
        new HttpFront.Handler() {
          @Override
          public HttpFront.Response handle(HttpFront.Request request) {
            return MetricsServer.this.handle(request);
          }

          @Override
          public HttpFront.Response error(int status, String message) {
            return MetricsServer.error(status, message);
          }
        };
    try {
      this.server = new HttpFront(address, handler, workers, limits);
    } catch (IOException e) {
      workers.shutdownNow();
      throw e;
    }
  }

  /** Starts answering. */
  public void start() {
    server.start();
  }

  /** Where it listens (the port chosen when 0 was asked). */
  public InetSocketAddress address() {
    return server.address();
  }

  private static final String ENDPOINTS =
      "there are GET /metrics, /processes, /rules and POST /gcdump, /trace, /dump";

  private HttpFront.Response handle(HttpFront.Request x) {
    try {
      String path = x.path();
      boolean artifact = ARTIFACT_PATHS.contains(path);
      if (artifact && token == null) {
        return error(
            403,
            "the artifact endpoints are off: start serve with --token-file FILE (a bearer token),"
                + " then send Authorization: Bearer TOKEN");
      }
      if (token != null) {
        HttpFront.Response refused = authorized(x);
        if (refused != null) {
          return refused;
        }
      }
      boolean known = path.equals("/metrics") || path.equals("/processes") || path.equals("/rules");
      if (!known && !artifact) {
        return error(404, "no such endpoint: " + path + " (" + ENDPOINTS + ")");
      }
      String method = x.method();
      if (artifact) {
        if (!method.equals("POST")) {
          return error(405, path + " answers POST, not " + method).with("Allow", "POST");
        }
        return artifact(x, path);
      }
      if (!method.equals("GET") && !method.equals("HEAD")) {
        return error(405, path + " answers GET, not " + method).with("Allow", "GET, HEAD");
      }
      if (path.equals("/metrics")) {
        return HttpFront.Response.of(
            200,
            PrometheusText.CONTENT_TYPE,
            PrometheusText.render(watcher.metrics()).getBytes(StandardCharsets.UTF_8));
      } else if (path.equals("/rules")) {
        return HttpFront.Response.of(
            200,
            "application/json",
            rules == null ? "[]\n".getBytes(StandardCharsets.UTF_8) : rules.statusJson());
      } else {
        return HttpFront.Response.of(200, "application/json", processes(watcher.processes()));
      }
    } catch (ArtifactProblem e) {
      return error(e.status(), e.getMessage());
    } catch (IOException | RuntimeException e) {
      // A bug: the client gets a 500 and a line, the log the trace; the server goes on.
      log.error("{} {} failed", x.method(), x.path(), e);
      return error(500, "internal error: " + e);
    }
  }

  private static final java.util.Set<String> ARTIFACT_PATHS =
      java.util.Set.of("/gcdump", "/trace", "/dump");

  /**
   * {@code POST /gcdump?pid=}, {@code /trace?pid=&duration=&profile=}, {@code /dump?pid=&type=}.
   */
  private HttpFront.Response artifact(HttpFront.Request x, String path) throws IOException {
    ArtifactQuery q = ArtifactQuery.parse(x.rawQuery(), path);
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
      return HttpFront.Response.of(200, "application/json", out.toByteArray());
    }
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", a.contentType());
    headers.put("Content-Disposition", "attachment; filename=\"" + a.fileName() + "\"");
    if (keepArtifacts) {
      headers.put("X-Clrscope-Artifact", a.file().toString());
    }
    Runnable sent =
        keepArtifacts
            ? null
            : () -> {
              try {
                ArtifactCollector.discard(a);
              } catch (IOException e) {
                log.warn("could not remove the sent {}: {}", a.file(), e.getMessage());
              }
            };
    return new HttpFront.Response(200, headers, null, a.file(), sent);
  }

  /** Null when {@code x} carries the token, else the 401 or 403 to answer. */
  private HttpFront.Response authorized(HttpFront.Request x) {
    String header = x.header("Authorization");
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return error(401, "this server needs a bearer token (Authorization: Bearer TOKEN)")
          .with("WWW-Authenticate", "Bearer");
    }
    byte[] given = header.substring(7).strip().getBytes(StandardCharsets.UTF_8);
    if (!MessageDigest.isEqual(given, token)) {
      return error(403, "the bearer token is not this server's");
    }
    return null;
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

  private static HttpFront.Response error(int status, String message) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("error", message);
      g.writeEndObject();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    out.write('\n');
    return HttpFront.Response.of(status, "application/json", out.toByteArray());
  }

  /** Stops answering (requests being answered are given two seconds). */
  @Override
  public void close() {
    server.close(java.time.Duration.ofSeconds(2));
    workers.shutdownNow();
  }
}
