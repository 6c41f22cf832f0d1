package dev.clrscope.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HttpFront} over real sockets, with short limits: what a slow, flooding or malformed client
 * gets, and what a well-behaved one still gets meanwhile.
 */
class HttpFrontTest {
  private static final HttpFront.Limits LIMITS =
      new HttpFront.Limits(
          Duration.ofMillis(600),
          Duration.ofMillis(800),
          Duration.ofMillis(600),
          8,
          64,
          2048,
          1000);

  private final AtomicInteger handled = new AtomicInteger();
  private ExecutorService workers;
  private HttpFront front;
  private Path file;

  @TempDir Path dir;

  @BeforeEach
  void start() throws IOException {
    workers = Executors.newFixedThreadPool(2);
    file = dir.resolve("big.bin");
    Files.write(file, new byte[8 << 20]);
    front =
        new HttpFront(
            new InetSocketAddress("127.0.0.1", 0),
            new HttpFront.Handler() {
              @Override
              public HttpFront.Response handle(HttpFront.Request r) {
                handled.incrementAndGet();
                if (r.path().equals("/file")) {
                  return new HttpFront.Response(
                      200,
                      Map.of("Content-Type", "application/octet-stream"),
                      null,
                      file,
                      () -> {
                        try {
                          Files.deleteIfExists(file);
                        } catch (IOException e) {
                          throw new java.io.UncheckedIOException(e);
                        }
                      });
                }
                return HttpFront.Response.of(
                    200,
                    "text/plain",
                    (r.method() + " " + r.path() + " " + r.rawQuery() + " " + r.header("X-A"))
                        .getBytes(StandardCharsets.UTF_8));
              }

              @Override
              public HttpFront.Response error(int status, String message) {
                return HttpFront.Response.of(
                    status, "text/plain", message.getBytes(StandardCharsets.UTF_8));
              }
            },
            workers,
            LIMITS);
    front.start();
  }

  @AfterEach
  void stop() {
    front.close(Duration.ofMillis(200));
    workers.shutdownNow();
  }

  @Test
  void answersRequestsWithKeepAliveAndPipelining() throws IOException {
    try (Socket s = connect()) {
      send(s, "GET /a?x=1 HTTP/1.1\r\nHost: h\r\nX-A: one\r\n\r\n");
      assertThat(readResponse(s)).endsWith("GET /a x=1 one");
      // Two requests in one write: two answers, in order, on the same connection.
      send(
          s,
          "GET /b HTTP/1.1\r\nHost: h\r\n\r\nPOST /c HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n"
              + "\r\nabc");
      assertThat(readResponse(s)).endsWith("GET /b null null");
      assertThat(readResponse(s)).endsWith("POST /c null null");
      // HEAD: the length GET would have ("HEAD /d null null"), no body; the connection goes on.
      send(s, "HEAD /d HTTP/1.1\r\nHost: h\r\n\r\n");
      assertThat(readHead(s)).contains("Content-Length: 17\r\n");
      send(s, "GET /e HTTP/1.1\r\nHost: h\r\n\r\n");
      assertThat(readResponse(s)).endsWith("GET /e null null");
    }
  }

  @Test
  void malformedRequestsAreRefusedWithTheirStatus() throws IOException {
    assertThat(once("GET / HTTP/1.1\nHost: h\n\n"))
        .startsWith("HTTP/1.1 400 Bad Request\r\n")
        .endsWith("lines of a request end with CRLF, not a bare LF");
    assertThat(once("GET /\r\n\r\n")).startsWith("HTTP/1.1 400 ");
    assertThat(once("GET / HTTP/2.0\r\n\r\n")).startsWith("HTTP/1.1 505 ");
    assertThat(once("GET / HTTP/1.1\r\nX: " + "a".repeat(3000) + "\r\n\r\n"))
        .startsWith("HTTP/1.1 431 ");
    assertThat(once("POST / HTTP/1.1\r\nContent-Length: 5000\r\n\r\n")).startsWith("HTTP/1.1 413 ");
    assertThat(once("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"))
        .startsWith("HTTP/1.1 411 ");
    assertThat(once("GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n")).startsWith("HTTP/1.1 400 ");
    assertThat(once("GET / HTTP/1.1\r\nno colon\r\n\r\n")).startsWith("HTTP/1.1 400 ");
    assertThat(handled).hasValue(0);
  }

  @Test
  void slowClientsHoldNoWorkerAndAreClosedAtTheirDeadline() throws Exception {
    List<Socket> slow = new ArrayList<>();
    try {
      for (int i = 0; i < 200; i++) {
        Socket s = connect();
        send(
            s,
            i % 2 == 0
                ? "GET /slow HTTP/1.1\r\nHost: h\r\n"
                : "POST /slow HTTP/1.1\r\nContent-Length: 100\r\n\r\nab");
        slow.add(s);
      }
      for (int i = 0; i < 5; i++) {
        long t = System.nanoTime();
        assertThat(once("GET /fast HTTP/1.1\r\n\r\n")).endsWith("GET /fast null null");
        assertThat((System.nanoTime() - t) / 1_000_000).isLessThan(500);
      }
      // The client's cap: of its 200 unfinished requests, 8 at most are held.
      assertThat(open(slow)).isBetween(1, 8);
      await().atMost(Duration.ofSeconds(5)).until(() -> open(slow) == 0);
      assertThat(handled).hasValue(5);
      assertThat(front.connections()).isZero();
    } finally {
      for (Socket s : slow) {
        s.close();
      }
    }
  }

  @Test
  void aSlowClientGetsA408AndAnIdleOneIsClosed() throws IOException {
    try (Socket s = connect()) {
      send(s, "GET / HTTP/1.1\r\n");
      s.setSoTimeout(5000);
      String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
      assertThat(answer).startsWith("HTTP/1.1 408 Request Timeout\r\n");
    }
    try (Socket s = connect()) {
      send(s, "GET /a HTTP/1.1\r\n\r\n");
      readResponse(s);
      s.setSoTimeout(5000);
      assertThat(s.getInputStream().read()).as("closed after its idle time").isEqualTo(-1);
    }
  }

  @Test
  void aFileIsSentWholeAndCleanedUpAfterAndAClientThatNeverReadsIsGivenUp() throws Exception {
    try (Socket s = connect()) {
      send(s, "GET /file HTTP/1.1\r\n\r\n");
      String head = readHead(s);
      assertThat(head).contains("Content-Length: " + (8 << 20));
      assertThat(s.getInputStream().readNBytes(8 << 20)).hasSize(8 << 20);
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> !Files.exists(file));
    Files.write(file, new byte[8 << 20]);
    try (Socket s = connect()) {
      s.setReceiveBufferSize(4096);
      send(s, "GET /file HTTP/1.1\r\n\r\n");
      // Nothing is read: once the response makes no progress for its limit, it is given up and
      // its file cleaned up all the same.
      await().atMost(Duration.ofSeconds(5)).until(() -> !Files.exists(file));
      assertThat(front.connections()).isZero();
    }
  }

  private Socket connect() throws IOException {
    Socket s = new Socket();
    s.connect(front.address(), 2000);
    return s;
  }

  private static void send(Socket s, String text) throws IOException {
    OutputStream o = s.getOutputStream();
    o.write(text.getBytes(StandardCharsets.ISO_8859_1));
    o.flush();
  }

  /** One request on its own connection, with what came back until the server closed it. */
  private String once(String request) throws IOException {
    try (Socket s = connect()) {
      s.setSoTimeout(5000);
      send(s, request.replaceFirst("\r\n\r\n$", "\r\nConnection: close\r\n\r\n"));
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }

  private static String readHead(Socket s) throws IOException {
    s.setSoTimeout(5000);
    InputStream in = s.getInputStream();
    StringBuilder b = new StringBuilder();
    while (!b.toString().endsWith("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        break;
      }
      b.append((char) c);
    }
    return b.toString();
  }

  /** The next response on {@code s}, head and body. */
  private static String readResponse(Socket s) throws IOException {
    String head = readHead(s);
    int at = head.indexOf("Content-Length: ");
    int length = Integer.parseInt(head.substring(at + 16, head.indexOf("\r\n", at)));
    byte[] body = s.getInputStream().readNBytes(length);
    return head + new String(body, StandardCharsets.ISO_8859_1);
  }

  private static int open(List<Socket> sockets) throws IOException {
    int open = 0;
    byte[] buffer = new byte[4096];
    for (Socket s : sockets) {
      if (s.isClosed()) {
        continue;
      }
      s.setSoTimeout(1);
      try {
        int n;
        while ((n = s.getInputStream().read(buffer)) > 0) {
          // A 408 on its way; the close follows.
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
