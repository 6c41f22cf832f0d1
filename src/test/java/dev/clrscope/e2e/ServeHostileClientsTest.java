package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} against clients that never finish their requests, over real sockets: 1,500
 * connections that send half a head ({@code GET /metrics HTTP/1.1\r\nHost: x\r\n} and no end) or
 * half a body ({@code Content-Length: 100} and 2 bytes) while {@code /metrics} is asked for: it
 * answers every time within a second, serve keeps at most 64 connections of that client (the oldest
 * unfinished ones make room), and closes the slow ones once their 10 s are up. Before, the JDK's
 * server read heads on its four worker threads: four such connections took it down.
 */
class ServeHostileClientsTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final Pattern SERVING = Pattern.compile("Serving http://127\\.0\\.0\\.1:(\\d+)/");

  /** A pid that is no .NET process (this JVM's): serve then watches nothing. */
  private static final String NOT_DOTNET = Long.toString(ProcessHandle.current().pid());

  private static final int SLOW = 1500;

  @Test
  void halfOpenRequestsNeitherBlockMetricsNorStayOpen(@TempDir Path dir) throws Exception {
    try (RunningCli serve =
        Clrscope.start(Map.of(), dir, "serve", "--listen", "127.0.0.1:0", "-p", NOT_DOTNET)) {
      int port = Integer.parseInt(serve.awaitStderr(SERVING, TIMEOUT));
      List<Socket> slow = new ArrayList<>();
      try {
        for (int i = 0; i < SLOW; i++) {
          Socket s = new Socket();
          s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
          OutputStream o = s.getOutputStream();
          o.write(
              (i % 2 == 0
                      ? "GET /metrics HTTP/1.1\r\nHost: x\r\n"
                      : "POST /gcdump?pid=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab")
                  .getBytes(StandardCharsets.US_ASCII));
          o.flush();
          slow.add(s);
        }
        long started = System.nanoTime();
        for (int i = 0; i < 10; i++) {
          long t = System.nanoTime();
          String answer = exchange(port, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
          long ms = (System.nanoTime() - t) / 1_000_000;
          assertThat(answer).startsWith("HTTP/1.1 200 OK\r\n");
          assertThat(ms).as("GET /metrics with %d slow connections open", SLOW).isLessThan(1000);
        }
        // Of that client's 1,500, serve holds at most its 64 (the /metrics ones came and went).
        assertThat(open(slow)).isBetween(1, 64);
        // And those are closed once their request's 10 s are up (with a 408 when still read).
        await()
            .atMost(Duration.ofSeconds(25))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> open(slow) == 0);
        assertThat(Duration.ofNanos(System.nanoTime() - started))
            .isGreaterThan(Duration.ofSeconds(5));
      } finally {
        for (Socket s : slow) {
          s.close();
        }
      }
      // A request whose lines end with a bare LF is a 400 that says so, not a silent close.
      assertThat(exchange(port, "GET /metrics HTTP/1.1\nHost: x\n\n"))
          .startsWith("HTTP/1.1 400 Bad Request\r\n")
          .contains("{\"error\":\"lines of a request end with CRLF, not a bare LF\"}");
      serve.signal("TERM");
      assertThat(serve.await(TIMEOUT).exitCode()).isZero();
    }
  }

  /** Sends {@code request} on a new connection and returns what comes back until it closes. */
  private static String exchange(int port, String request) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      s.setSoTimeout(5000);
      s.getOutputStream()
          .write(
              request
                  .replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }

  /** How many of {@code sockets} serve has not closed: a read that neither ends nor fails. */
  private static int open(List<Socket> sockets) throws IOException {
    int open = 0;
    byte[] buffer = new byte[4096];
    for (Socket s : sockets) {
      if (s.isClosed()) {
        continue;
      }
      s.setSoTimeout(1);
      InputStream in = s.getInputStream();
      try {
        int n;
        while ((n = in.read(buffer)) > 0) {
          // A 408 being read: the close follows.
        }
        if (n < 0) {
          s.close();
        }
      } catch (SocketTimeoutException e) {
        open++;
      } catch (IOException e) {
        s.close();
      }
    }
    return open;
  }
}
