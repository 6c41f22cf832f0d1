package dev.clrscope.serve;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * serve's HTTP/1.1 server: one selector thread does every read and write, without blocking, so a
 * client that sends half a request, or never reads its answer, holds no thread; a request is handed
 * to a worker only once its head and body are whole. The JDK's {@code HttpServer} reads a request's
 * head on a worker thread, blocking: four clients that never end their headers took every worker of
 * serve, and its request-time limit ({@code sun.net.httpserver.maxReqTime}) only closes them after
 * the fact, one timer tick at a time, while it has no limit per client.
 *
 * <p>Limits ({@link Limits}): a request's head and body must arrive within a deadline; an idle
 * keep-alive connection is closed after a while; a response that makes no progress for a while is
 * given up. A client address may hold a bounded number of connections and the server a bounded
 * total: past either, the oldest connection that is not being answered is closed to make room
 * (rather than the new one, so that a client that floods cannot lock others of its address out).
 * Lines must end with CRLF: a bare LF is a 400, as are malformed request lines and headers; a head
 * too big is a 431, a body too big a 413, a chunked body a 411.
 */
public final class HttpFront implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HttpFront.class);

  /**
   * The limits a client is held to.
   *
   * @param requestDeadline how long a request's head and body may take to arrive, from its first
   *     byte (or the connection's start)
   * @param idle how long a keep-alive connection may wait for its next request
   * @param writeStall how long a response may make no progress (the client reads nothing)
   * @param perClient how many connections one client address may hold
   * @param total how many connections the server holds
   * @param maxHead the largest request head, in bytes
   * @param maxBody the largest request body, in bytes
   */
  public record Limits(
      Duration requestDeadline,
      Duration idle,
      Duration writeStall,
      int perClient,
      int total,
      int maxHead,
      int maxBody) {
    /** serve's: ten seconds for a request, 64 connections per client, 1,024 in all. */
    public static final Limits DEFAULT =
        new Limits(
            Duration.ofSeconds(10),
            Duration.ofSeconds(30),
            Duration.ofSeconds(60),
            64,
            1024,
            16 * 1024,
            64 * 1024);
  }

  /**
   * A whole request.
   *
   * @param method GET, POST, ...
   * @param path the decoded path
   * @param rawQuery the query as sent, or null
   * @param headers the headers, names in lower case (the last of a repeated header)
   * @param client the client's address
   */
  public record Request(
      String method,
      String path,
      String rawQuery,
      Map<String, String> headers,
      InetAddress client) {
    /** Header {@code name} (any case), or null. */
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  /**
   * An answer: a status, headers and a body held in memory or a file sent as it is.
   *
   * @param status the status code
   * @param headers headers to send (Content-Length is added)
   * @param body the body, or null when {@code file} is sent
   * @param file a file to send as the body, or null
   * @param sent run once the response is written or given up (a file's cleanup), or null
   */
  public record Response(
      int status, Map<String, String> headers, byte[] body, Path file, Runnable sent) {
    /** A body held in memory. */
    public static Response of(int status, String contentType, byte[] body) {
      Map<String, String> h = new LinkedHashMap<>();
      h.put("Content-Type", contentType);
      return new Response(status, h, body, null, null);
    }

    /** The same response with one more header. */
    public Response with(String name, String value) {
      Map<String, String> h = new LinkedHashMap<>(headers);
      h.put(name, value);
      return new Response(status, h, body, file, sent);
    }
  }

  /** What answers requests, on a worker thread. */
  public interface Handler {
    /** The answer to {@code request}; never throws (a bug is a 500 it builds itself). */
    Response handle(Request request);

    /** The answer the server gives itself to a bad request: a status and one line why. */
    Response error(int status, String message);
  }

  private enum State {
    /** Waiting for (the rest of) a request's head or body. */
    READING,
    /** A worker is answering. */
    HANDLING,
    /** The response is being written. */
    WRITING
  }

  /** One connection, touched by the selector thread only (but for {@link #response}). */
  private final class Conn {
    final SocketChannel channel;
    final InetAddress client;
    final long opened = System.nanoTime();
    SelectionKey key;
    State state = State.READING;
    ByteBuffer in = ByteBuffer.allocate(1024);
    long deadline;
    boolean started;
    int bodyNeeded = -1;
    int headEnd;
    Request request;
    boolean keepAlive;
    boolean head;
    volatile Response response;
    ByteBuffer out;
    FileChannel file;
    long filePosition;
    long fileEnd;
    long lastProgress;

    Conn(SocketChannel channel, InetAddress client) {
      this.channel = channel;
      this.client = client;
      this.deadline = System.nanoTime() + limits.requestDeadline().toNanos();
    }

    /** Whether closing it loses nothing: nobody is answering it. */
    boolean evictable() {
      return state == State.READING;
    }
  }

  private final Limits limits;
  private final Handler handler;
  private final ExecutorService workers;
  private final ServerSocketChannel server;
  private final Selector selector;
  private final Thread loop;
  private final Set<Conn> conns = new LinkedHashSet<>();
  private final Map<InetAddress, ArrayDeque<Conn>> byClient = new HashMap<>();
  private final Queue<Conn> answered = new ConcurrentLinkedQueue<>();
  private volatile boolean closing;
  private volatile boolean stopped;

  /**
   * Binds {@code address} (port 0: any free one); {@link #start()} starts answering.
   *
   * @param workers where requests are answered
   * @throws IOException if the address cannot be bound
   */
  public HttpFront(
      InetSocketAddress address, Handler handler, ExecutorService workers, Limits limits)
      throws IOException {
    this.limits = limits;
    this.handler = handler;
    this.workers = workers;
    this.selector = Selector.open();
    this.server = ServerSocketChannel.open();
    try {
      server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      server.bind(address, 1024);
      server.configureBlocking(false);
      server.register(selector, SelectionKey.OP_ACCEPT);
    } catch (IOException e) {
      server.close();
      selector.close();
      throw e;
    }
    this.loop = new Thread(this::run, "clrscope-serve-http-io");
    loop.setDaemon(true);
  }

  /** Starts answering. */
  public void start() {
    loop.start();
  }

  /** Where it listens (the port chosen when 0 was asked). */
  public InetSocketAddress address() {
    try {
      return (InetSocketAddress) server.getLocalAddress();
    } catch (IOException e) {
      throw new IllegalStateException("the listening socket is closed", e);
    }
  }

  /** How many connections are open now (for tests and logs). */
  public int connections() {
    synchronized (conns) {
      return conns.size();
    }
  }

  private void run() {
    try {
      while (!stopped) {
        // A quarter of a second at most between looks at the deadlines.
        selector.select(this::ready, 250);
        Conn c;
        while ((c = answered.poll()) != null) {
          startWriting(c);
        }
        expire();
        if (closing && idleForShutdown()) {
          break;
        }
      }
    } catch (IOException | RuntimeException e) {
      log.error("the HTTP loop failed; serve no longer answers", e);
    } finally {
      for (Conn c : new ArrayList<>(conns)) {
        close(c);
      }
      abandonAnswered();
      try {
        server.close();
        selector.close();
      } catch (IOException e) {
        log.debug("closing the listening socket: {}", e.getMessage());
      }
      stopped = true;
    }
  }

  private void ready(SelectionKey key) {
    try {
      if (key.channel() == server) {
        accept();
        return;
      }
      Conn c = (Conn) key.attachment();
      if (key.isValid() && key.isReadable()) {
        read(c);
      }
      if (key.isValid() && key.isWritable() && c.state == State.WRITING) {
        write(c);
      }
    } catch (java.nio.channels.CancelledKeyException e) {
      // Closed while its readiness was being handled.
    }
  }

  private void accept() {
    SocketChannel ch;
    try {
      while ((ch = server.accept()) != null) {
        if (closing) {
          ch.close();
          continue;
        }
        ch.configureBlocking(false);
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        InetAddress client = ((InetSocketAddress) ch.getRemoteAddress()).getAddress();
        Conn c = new Conn(ch, client);
        ArrayDeque<Conn> mine = byClient.computeIfAbsent(client, k -> new ArrayDeque<>());
        if (mine.size() >= limits.perClient() && !evictOldest(mine)) {
          ch.close();
          continue;
        }
        if (conns.size() >= limits.total() && !evictOldest(conns)) {
          ch.close();
          continue;
        }
        c.key = ch.register(selector, SelectionKey.OP_READ, c);
        synchronized (conns) {
          conns.add(c);
        }
        mine.addLast(c);
      }
    } catch (IOException e) {
      // Out of file descriptors, or a connection reset before it was taken: the next one.
      log.debug("accepting a connection failed: {}", e.getMessage());
    }
  }

  /** Closes the oldest connection of {@code among} that nobody answers; false if there is none. */
  private boolean evictOldest(Iterable<Conn> among) {
    for (Conn c : among) {
      if (c.evictable()) {
        log.debug("closing a connection of {} to make room", c.client);
        close(c);
        return true;
      }
    }
    return false;
  }

  private void read(Conn c) {
    if (c.state != State.READING) {
      return;
    }
    if (!c.in.hasRemaining()) {
      int cap = limits.maxHead() + Math.max(c.bodyNeeded, 0) + 1;
      if (c.in.capacity() >= cap) {
        refuse(c, c.bodyNeeded >= 0 ? 413 : 431, "the request is too large");
        return;
      }
      ByteBuffer bigger = ByteBuffer.allocate(Math.min(cap, c.in.capacity() * 4));
      c.in.flip();
      bigger.put(c.in);
      c.in = bigger;
    }
    int n;
    try {
      n = c.channel.read(c.in);
    } catch (IOException e) {
      close(c);
      return;
    }
    if (n < 0) {
      close(c);
      return;
    }
    if (n > 0 && !c.started) {
      // The request's time starts with its first byte; before it, the idle limit applies.
      c.started = true;
      c.deadline = System.nanoTime() + limits.requestDeadline().toNanos();
    }
    parse(c);
  }

  /** Takes a whole request out of the connection's bytes, if they hold one. */
  private void parse(Conn c) {
    byte[] b = c.in.array();
    int len = c.in.position();
    if (c.bodyNeeded < 0) {
      int end = -1;
      for (int i = 0; i < len; i++) {
        if (b[i] == '\n') {
          if (i == 0 || b[i - 1] != '\r') {
            refuse(c, 400, "lines of a request end with CRLF, not a bare LF");
            return;
          }
          if (i >= 3 && b[i - 2] == '\n' && b[i - 3] == '\r') {
            end = i + 1;
            break;
          }
        }
      }
      if (end < 0) {
        if (len > limits.maxHead()) {
          refuse(c, 431, "the request's head is over " + limits.maxHead() + " bytes");
        }
        return;
      }
      if (end > limits.maxHead()) {
        refuse(c, 431, "the request's head is over " + limits.maxHead() + " bytes");
        return;
      }
      if (!head(c, new String(b, 0, end - 4, StandardCharsets.ISO_8859_1))) {
        return;
      }
      c.headEnd = end;
    }
    if (len - c.headEnd < c.bodyNeeded) {
      return;
    }
    // Whole: the body is read and set aside (no endpoint takes one); what follows is the next
    // request of a pipelining client, kept for after the answer.
    int used = c.headEnd + c.bodyNeeded;
    ByteBuffer rest = ByteBuffer.allocate(Math.max(1024, len - used));
    rest.put(b, used, len - used);
    c.in = rest;
    c.bodyNeeded = -1;
    c.headEnd = 0;
    c.started = rest.position() > 0;
    c.state = State.HANDLING;
    c.key.interestOps(0);
    Request r = c.request;
    try {
      workers.execute(() -> answer(c, r));
    } catch (RejectedExecutionException e) {
      c.state = State.READING;
      refuse(c, 503, "serve is stopping");
    }
  }

  /** Reads the request line and headers; false when the request was refused. */
  private boolean head(Conn c, String text) {
    String[] lines = text.split("\r\n", -1);
    String[] line = lines[0].split(" ", -1);
    if (line.length != 3 || line[0].isEmpty() || !line[0].chars().allMatch(HttpFront::tokenChar)) {
      refuse(c, 400, "the request line is not METHOD TARGET HTTP/1.1");
      return false;
    }
    String version = line[2];
    if (!version.equals("HTTP/1.1") && !version.equals("HTTP/1.0")) {
      refuse(
          c,
          version.startsWith("HTTP/") ? 505 : 400,
          "this server speaks HTTP/1.1 and 1.0, not " + clip(version));
      return false;
    }
    URI target;
    try {
      target = new URI(line[1]);
    } catch (URISyntaxException e) {
      refuse(c, 400, "the request target is not a URI: " + clip(line[1]));
      return false;
    }
    if (target.getPath() == null || !target.getPath().startsWith("/")) {
      refuse(c, 400, "the request target must be a path: " + clip(line[1]));
      return false;
    }
    Map<String, String> headers = new HashMap<>();
    for (int i = 1; i < lines.length; i++) {
      String h = lines[i];
      int colon = h.indexOf(':');
      if (colon <= 0 || !h.substring(0, colon).chars().allMatch(HttpFront::tokenChar)) {
        refuse(c, 400, "a header line is not NAME: VALUE");
        return false;
      }
      headers.put(h.substring(0, colon).toLowerCase(Locale.ROOT), h.substring(colon + 1).strip());
    }
    if (lines.length - 1 > 100) {
      refuse(c, 431, "the request has over 100 headers");
      return false;
    }
    if (headers.containsKey("transfer-encoding")) {
      refuse(c, 411, "send the body with a Content-Length, not a Transfer-Encoding");
      return false;
    }
    int body = 0;
    String length = headers.get("content-length");
    if (length != null) {
      if (!length.matches("[0-9]{1,10}")) {
        refuse(c, 400, "Content-Length is not a number: " + clip(length));
        return false;
      }
      long l = Long.parseLong(length);
      if (l > limits.maxBody()) {
        refuse(c, 413, "the body is over " + limits.maxBody() + " bytes");
        return false;
      }
      body = (int) l;
    }
    String connection = headers.getOrDefault("connection", "").toLowerCase(Locale.ROOT);
    c.keepAlive =
        version.equals("HTTP/1.1")
            ? !connection.contains("close")
            : connection.contains("keep-alive");
    c.head = line[0].equals("HEAD");
    c.bodyNeeded = body;
    c.request = new Request(line[0], target.getPath(), target.getRawQuery(), headers, c.client);
    return true;
  }

  private static boolean tokenChar(int ch) {
    return ch > 32 && ch < 127 && "()<>@,;:\\\"/[]?={}".indexOf(ch) < 0;
  }

  /** On a worker: the handler's answer, handed back to the selector thread. */
  private void answer(Conn c, Request r) {
    Response response;
    try {
      response = handler.handle(r);
    } catch (RuntimeException e) {
      log.error("{} {} failed", r.method(), r.path(), e);
      response = handler.error(500, "internal error: " + e);
    }
    c.response = response;
    answered.add(c);
    selector.wakeup();
  }

  /** Answers a bad request itself and closes the connection once that is written. */
  private void refuse(Conn c, int status, String message) {
    log.debug("{} from {}: {}", status, c.client, message);
    c.keepAlive = false;
    c.head = false;
    c.response = handler.error(status, message);
    startWriting(c);
  }

  private void startWriting(Conn c) {
    if (!c.channel.isOpen()) {
      done(c.response);
      return;
    }
    Response r = c.response;
    long length;
    try {
      if (r.file() != null) {
        c.file = FileChannel.open(r.file(), StandardOpenOption.READ);
        length = c.file.size();
        c.filePosition = 0;
        c.fileEnd = length;
      } else {
        length = r.body().length;
      }
    } catch (IOException e) {
      log.warn("could not send {}: {}", r.file(), e.getMessage());
      done(r);
      close(c);
      return;
    }
    StringBuilder h = new StringBuilder(256);
    h.append("HTTP/1.1 ").append(r.status()).append(' ').append(reason(r.status())).append("\r\n");
    r.headers().forEach((k, v) -> h.append(k).append(": ").append(v).append("\r\n"));
    h.append("Content-Length: ").append(length).append("\r\n");
    if (!c.keepAlive || closing) {
      h.append("Connection: close\r\n");
      c.keepAlive = false;
    }
    h.append("\r\n");
    byte[] headBytes = h.toString().getBytes(StandardCharsets.ISO_8859_1);
    boolean withBody = !c.head && r.body() != null;
    c.out = ByteBuffer.allocate(headBytes.length + (withBody ? r.body().length : 0));
    c.out.put(headBytes);
    if (withBody) {
      c.out.put(r.body());
    }
    c.out.flip();
    if (c.head && c.file != null) {
      c.fileEnd = 0;
    }
    c.state = State.WRITING;
    c.lastProgress = System.nanoTime();
    write(c);
  }

  private void write(Conn c) {
    try {
      long wrote = 0;
      if (c.out.hasRemaining()) {
        wrote += c.channel.write(c.out);
      }
      while (!c.out.hasRemaining() && c.file != null && c.filePosition < c.fileEnd) {
        long n = c.file.transferTo(c.filePosition, c.fileEnd - c.filePosition, c.channel);
        if (n <= 0) {
          break;
        }
        c.filePosition += n;
        wrote += n;
      }
      if (wrote > 0) {
        c.lastProgress = System.nanoTime();
      }
      boolean finished = !c.out.hasRemaining() && (c.file == null || c.filePosition >= c.fileEnd);
      if (!finished) {
        c.key.interestOps(SelectionKey.OP_WRITE);
        return;
      }
    } catch (IOException e) {
      close(c);
      return;
    }
    Response r = c.response;
    closeFile(c);
    c.response = null;
    c.out = null;
    done(r);
    if (!c.keepAlive) {
      close(c);
      return;
    }
    c.state = State.READING;
    c.deadline =
        System.nanoTime() + (c.started ? limits.requestDeadline() : limits.idle()).toNanos();
    c.key.interestOps(SelectionKey.OP_READ);
    if (c.in.position() > 0) {
      parse(c);
    }
  }

  /** Closes what has run out of time. */
  private void expire() {
    long now = System.nanoTime();
    List<Conn> late = new ArrayList<>();
    for (Conn c : conns) {
      boolean over =
          switch (c.state) {
            case READING -> now - c.deadline > 0;
            case WRITING -> now - c.lastProgress > limits.writeStall().toNanos();
            case HANDLING -> false;
          };
      if (over) {
        late.add(c);
      }
    }
    for (Conn c : late) {
      if (c.state == State.READING && c.started) {
        // Said if the client still listens; written without waiting, then closed.
        try {
          c.channel.write(
              ByteBuffer.wrap(
                  "HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                      .getBytes(StandardCharsets.ISO_8859_1)));
        } catch (IOException e) {
          // Gone already.
        }
      }
      close(c);
    }
  }

  private boolean idleForShutdown() {
    for (Conn c : conns) {
      if (c.state != State.READING) {
        return false;
      }
    }
    return true;
  }

  private void close(Conn c) {
    boolean removed;
    synchronized (conns) {
      removed = conns.remove(c);
    }
    if (!removed) {
      return;
    }
    ArrayDeque<Conn> mine = byClient.get(c.client);
    if (mine != null) {
      mine.remove(c);
      if (mine.isEmpty()) {
        byClient.remove(c.client);
      }
    }
    if (c.key != null) {
      c.key.cancel();
    }
    try {
      c.channel.close();
    } catch (IOException e) {
      log.debug("closing a connection: {}", e.getMessage());
    }
    if (c.state == State.WRITING) {
      closeFile(c);
      done(c.response);
    }
  }

  private static void closeFile(Conn c) {
    if (c.file != null) {
      try {
        c.file.close();
      } catch (IOException e) {
        log.debug("closing a sent file: {}", e.getMessage());
      }
      c.file = null;
    }
  }

  private static void done(Response r) {
    if (r != null && r.sent() != null) {
      try {
        r.sent().run();
      } catch (RuntimeException e) {
        log.warn("cleaning up after a response failed", e);
      }
    }
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 408 -> "Request Timeout";
      case 409 -> "Conflict";
      case 411 -> "Length Required";
      case 413 -> "Content Too Large";
      case 429 -> "Too Many Requests";
      case 431 -> "Request Header Fields Too Large";
      case 500 -> "Internal Server Error";
      case 503 -> "Service Unavailable";
      case 505 -> "HTTP Version Not Supported";
      default -> "Status";
    };
  }

  private static String clip(String s) {
    String one = s.replaceAll("\\p{Cntrl}", " ");
    return one.length() > 40 ? one.substring(0, 40) + "..." : one;
  }

  /**
   * Stops taking connections, lets the requests being answered finish for up to {@code grace}, then
   * closes every connection.
   */
  public void close(Duration grace) {
    closing = true;
    selector.wakeup();
    try {
      loop.join(Math.max(1, grace.toMillis()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    stopped = true;
    selector.wakeup();
    try {
      loop.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    abandonAnswered();
  }

  /** Answers that came too late to be sent: their files are cleaned up all the same. */
  private void abandonAnswered() {
    Conn c;
    while ((c = answered.poll()) != null) {
      done(c.response);
    }
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(2));
  }
}
