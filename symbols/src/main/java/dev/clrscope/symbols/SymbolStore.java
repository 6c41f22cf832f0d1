package dev.clrscope.symbols;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Files a symbol server serves by SSQP key (the runtime's DAC, portable PDBs) (the Simple Symbol
 * Query Protocol of dotnet/symstore: {@code GET <server>/<key>}), kept in a local cache directory
 * laid out by the same keys, so a file is downloaded once and a cache directory can be filled by
 * hand or by {@code dotnet-symbol}.
 *
 * <p>What the cache holds is loaded as code (the DAC), so it is trusted only as far as {@link
 * FileTrust} allows: the cache directory and every directory above it must be root's or the user's
 * and writable by no one else, and the key's directories and file below it are checked as they are,
 * never followed. Directories the store creates are owner-only (0700). A cache that fails the check
 * is not used at all (said once, through the notes): a file is then downloaded into a private
 * directory of this run, removed when clrscope ends. A cached file that is a link, another user's,
 * writable by others, or not {@linkplain Validator valid} is removed and downloaded again.
 *
 * <p>The server must be {@code https} unless plain {@code http} was allowed. A download goes to a
 * temporary file beside the key's file and is renamed into place only when whole and valid; the
 * whole download, headers and body, must end within the deadline, and past it or past {@code
 * maxBytes} it is abandoned and its temporary file removed. Keys are checked: three path segments
 * of a restricted alphabet, never {@code ..}, so a key cannot reach outside the cache.
 */
public final class SymbolStore {
  /** Microsoft's public symbol server, where the runtime's DAC and PDBs are published. */
  public static final URI MICROSOFT = URI.create("https://msdl.microsoft.com/download/symbols");

  /** The deadline of a whole download when none is given. */
  public static final Duration DEFAULT_DEADLINE = Duration.ofMinutes(2);

  /** Longer than anyone waits; keeps the deadline within what the clocks count in nanoseconds. */
  private static final Duration LONGEST = Duration.ofDays(10_000);

  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._+-]{1,200}");

  /** Whether a file is what its key promises: null when it is, else why not ("is not ..."). */
  @FunctionalInterface
  public interface Validator {
    /** Any regular file. */
    Validator ANY = file -> null;

    String problem(Path file);
  }

  /**
   * A symbol server and how files are downloaded from it.
   *
   * @param url the server's root
   * @param deadline for a whole download, from the request to the last byte
   * @param allowHttp whether a plain {@code http} URL may be used
   */
  public record Server(URI url, Duration deadline, boolean allowHttp) {
    /** Whether the URL is plain http, which anyone on the way can change. */
    public boolean plainHttp() {
      return "http".equalsIgnoreCase(url.getScheme());
    }
  }

  private final Path cacheDir;
  private final Server server;
  private final long maxBytes;
  private final Consumer<String> notes;
  private final int uid = FileTrust.currentUid();
  private final HttpClient http;

  /** Why the server could not be reached, once it could not; then it is not asked again. */
  private volatile String unreachable;

  /** Why the cache is not used, once found; null while it is (or was not looked at). */
  private String cacheRefused;

  /**
   * Where downloads go when the cache is not used: one directory for the run (a live target at the
   * prompt finds its DAC again for each pause), made on first need, removed at exit.
   */
  private static Path privateDir;

  /**
   * A store whose server must be https, whose notes are dropped.
   *
   * @param cacheDir where files are kept, by key
   * @param server the symbol server, or null to use the cache only
   * @param deadline for the whole of one download
   * @param maxBytes a download larger than this is abandoned
   */
  public SymbolStore(Path cacheDir, URI server, Duration deadline, long maxBytes) {
    this(
        cacheDir,
        server == null ? null : new Server(server, deadline, false),
        maxBytes,
        note -> {});
  }

  /**
   * @param cacheDir where files are kept, by key
   * @param server the symbol server, or null to use the cache only
   * @param maxBytes a download larger than this is abandoned
   * @param notes one line each for what was passed over and why (a cache not trusted, a cached file
   *     replaced); the message of {@link NotFound} says the rest
   */
  public SymbolStore(Path cacheDir, Server server, long maxBytes, Consumer<String> notes) {
    this.cacheDir = cacheDir;
    this.server = server;
    this.maxBytes = maxBytes;
    this.notes = notes;
    this.http =
        server == null
            ? null
            : HttpClient.newBuilder()
                .connectTimeout(bounded(server.deadline()))
                // NORMAL never follows a redirect from https to http.
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
  }

  /**
   * The default cache directory: {@code $XDG_CACHE_HOME/clrscope/symbols}, else {@code
   * ~/.cache/clrscope/symbols}.
   */
  public static Path defaultCacheDir() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("clrscope").resolve("symbols");
  }

  /**
   * The SSQP key of a file indexed by a {@code libcoreclr.so}'s build-id, such as the runtime's
   * DAC: {@code libmscordaccore.so/elf-buildid-coreclr-<build-id>/libmscordaccore.so} (a build-id
   * of 16 to 19 bytes is padded with zeros to 20, as the symbol store indexes it).
   */
  public static String coreclrKey(String fileName, byte[] coreclrBuildId) {
    byte[] id = coreclrBuildId;
    if (id.length >= 16 && id.length < 20) {
      id = java.util.Arrays.copyOf(id, 20);
    }
    String file = fileName.toLowerCase(Locale.ROOT);
    return file + "/elf-buildid-coreclr-" + HexFormat.of().formatHex(id) + "/" + file;
  }

  /** Where the file of {@code key} is (or would be) in the cache. */
  public Path cachePath(String key) {
    checkKey(key);
    return cacheDir.resolve(key);
  }

  /** The URL of {@code key} on the server (null without a server). */
  public URI url(String key) {
    checkKey(key);
    if (server == null) {
      return null;
    }
    String base = server.url().toString();
    return URI.create(base.endsWith("/") ? base + key : base + "/" + key);
  }

  /** What {@link #fetch} found. */
  public record Fetched(Path file, boolean downloaded) {}

  /** Why {@link #fetch} found nothing: one phrase per place looked, for a one-line message. */
  public static final class NotFound extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean serverUnreachable;
    private final boolean fileRefused;

    public NotFound(String message) {
      this(message, false, false);
    }

    NotFound(String message, boolean serverUnreachable, boolean fileRefused) {
      super(message);
      this.serverUnreachable = serverUnreachable;
      this.fileRefused = fileRefused;
    }

    /** Whether the server sent a file that is not what the key promises (not valid). */
    public boolean fileRefused() {
      return fileRefused;
    }

    /**
     * Whether the server could not be reached or did not answer in time (rather than answered that
     * it has no such file): asking it again in this run would only wait again.
     */
    public boolean serverUnreachable() {
      return serverUnreachable;
    }
  }

  /** The server could not be reached, or did not answer within the deadline. */
  private static final class Unreachable extends IOException {
    private static final long serialVersionUID = 1L;

    Unreachable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** The file of {@code key}: from the cache, else downloaded into it. */
  public Fetched fetch(String key) throws NotFound {
    return fetch(key, Validator.ANY);
  }

  /**
   * The file of {@code key}: from the cache when it is there, trusted and {@code valid}, else
   * downloaded and checked with {@code valid} before it is put in the cache.
   *
   * @throws NotFound with a message naming where it looked and what happened there
   */
  public synchronized Fetched fetch(String key, Validator valid) throws NotFound {
    Path cached = cachePath(key);
    String inCache = "not in the cache " + cached;
    if (server == null && !Files.exists(cached, LinkOption.NOFOLLOW_LINKS)) {
      // Looking only (PDBs, by default): nothing is made in the cache.
      throw new NotFound(inCache + " (no symbol server)");
    }
    boolean refusedCached = false;
    Path dir = trustedKeyDirectory(key);
    if (dir != null) {
      String bad = cachedProblem(cached, valid);
      if (bad == null) {
        return new Fetched(cached, false);
      }
      if (!bad.isEmpty()) {
        refusedCached = true;
        inCache = "the cache's " + cached + " " + bad;
        if (server != null && (server.allowHttp() || !server.plainHttp()) && removed(cached, bad)) {
          notes.accept("the cached " + cached + " " + bad + ": removed; downloading it again");
        }
      }
    } else {
      inCache = "the symbol cache " + cacheDir + " is not used (" + cacheRefused + ")";
    }
    if (server == null) {
      throw new NotFound(inCache + " (no symbol server)", false, refusedCached);
    }
    URI url = url(key);
    if (server.plainHttp() && !server.allowHttp()) {
      throw new NotFound(
          inCache
              + ", and "
              + server.url()
              + " was not asked: it is plain http, which anyone on the way can change (give an"
              + " https URL, or allow http)");
    }
    String down = unreachable;
    if (down != null) {
      // One wait for a server that does not answer is enough for a run: every module would wait.
      throw new NotFound(
          inCache + ", and " + server.url() + " " + down + " (not asked again)", true, false);
    }
    try {
      Path target = dir != null ? cached : privateDirectory().resolve(key);
      if (dir == null) {
        Files.createDirectories(target.getParent());
        if (Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)
            && valid.problem(target) == null) {
          // Downloaded earlier in this run, into the run's own directory.
          return new Fetched(target, true);
        }
      }
      download(url, target, valid);
      return new Fetched(target, true);
    } catch (IOException e) {
      if (e instanceof Unreachable) {
        unreachable = e.getMessage();
      }
      throw new NotFound(
          inCache + ", and " + url + " " + e.getMessage(),
          e instanceof Unreachable,
          e instanceof Refused);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NotFound(inCache + ", and the download of " + url + " was interrupted");
    }
  }

  /**
   * The directory of the key's file in the cache, made if missing (owner-only) and checked with
   * every directory above it; null when the cache is not to be used (said once).
   */
  private Path trustedKeyDirectory(String key) {
    if (cacheRefused != null) {
      return null;
    }
    // A checked key: three segments, the file in the last.
    Path keyDir = cacheDir.resolve(key).getParent();
    String why;
    try {
      FileTrust.Untrusted u = FileTrust.privateDirectory(cacheDir, uid).untrusted();
      // Below the cache nothing is followed: each of the key's directories as it is.
      for (Path p : List.of(keyDir.getParent(), keyDir)) {
        if (u == null) {
          FileTrust.createPrivateDirectories(p);
          u = FileTrust.entry(p, FileTrust.Kind.DIRECTORY, uid);
        }
      }
      if (u == null) {
        return keyDir;
      }
      why = u.text();
    } catch (IOException e) {
      why = "it cannot be made or read: " + describe(e);
    }
    cacheRefused = why;
    notes.accept(
        "the symbol cache "
            + cacheDir
            + " is not used: "
            + why
            + "; files are downloaded for this run only (make the cache yours and writable by you"
            + " alone, or set XDG_CACHE_HOME)");
    return null;
  }

  /**
   * Why the cached file cannot be used: null when it can, "" when it is not there, else a phrase
   * ("is a symbolic link (to /x)", "is not a DAC: ...").
   */
  private String cachedProblem(Path cached, Validator valid) {
    FileTrust.Untrusted u;
    try {
      u = FileTrust.entry(cached, FileTrust.Kind.REGULAR_FILE, uid);
    } catch (NoSuchFileException e) {
      return "";
    } catch (IOException e) {
      return "cannot be read: " + describe(e);
    }
    if (u != null) {
      return u.why() + ", not followed or read";
    }
    return valid.problem(cached);
  }

  private boolean removed(Path cached, String why) {
    try {
      // Never followed: a link is removed, not what it points at.
      Files.deleteIfExists(cached);
      return true;
    } catch (IOException e) {
      notes.accept("the cached " + cached + " " + why + ", and cannot be removed: " + describe(e));
      return false;
    }
  }

  private static synchronized Path privateDirectory() throws IOException {
    if (privateDir == null) {
      Path dir =
          Files.createTempDirectory(
              "clrscope-symbols-",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      Runtime.getRuntime()
          .addShutdownHook(new Thread(() -> removeTree(dir), "clrscope-symbols-cleanup"));
      privateDir = dir;
    }
    return privateDir;
  }

  private static void removeTree(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException | RuntimeException e) {
      // At exit, best effort: the directory is the user's own and owner-only.
    }
  }

  private void download(URI url, Path target, Validator valid)
      throws IOException, InterruptedException {
    Duration deadline = bounded(server.deadline());
    long end = System.nanoTime() + deadline.toNanos();
    Path partial =
        Files.createTempFile(
            target.getParent(), "." + target.getFileName().toString() + ".", ".partial");
    // A run ended by Ctrl+C leaves no partial file either.
    partial.toFile().deleteOnExit();
    boolean moved = false;
    try {
      try (FileChannel out =
          FileChannel.open(partial, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
        fetchInto(url, out, deadline, end);
      }
      String problem = valid.problem(partial);
      if (problem != null) {
        throw new Refused("sent a file that " + problem);
      }
      Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
      moved = true;
    } finally {
      if (!moved) {
        Files.deleteIfExists(partial);
      }
    }
  }

  private void fetchInto(URI url, FileChannel out, Duration deadline, long end)
      throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(url).timeout(deadline).GET().build();
    long[] declared = {-1};
    int[] status = {0};
    FileBody sink = new FileBody(out, maxBytes);
    CompletableFuture<HttpResponse<Long>> response =
        http.sendAsync(
            request,
            info -> {
              status[0] = info.statusCode();
              declared[0] = info.headers().firstValueAsLong("Content-Length").orElse(-1);
              if (status[0] != 200) {
                return HttpResponse.BodySubscribers.replacing(-1L);
              }
              if (declared[0] > maxBytes) {
                sink.refuse(
                    new IOException(
                        "offers " + declared[0] + " bytes, more than the limit of " + maxBytes));
              }
              return sink;
            });
    HttpResponse<Long> r;
    try {
      r = response.get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      response.cancel(true);
      sink.cancel();
      if (status[0] == 0) {
        throw new Unreachable("did not answer within " + seconds(deadline), e);
      }
      throw new Unreachable(
          "did not send the whole file within "
              + seconds(deadline)
              + " ("
              + sink.bytes()
              + (declared[0] >= 0 ? " of " + declared[0] : "")
              + " bytes came)",
          e);
    } catch (InterruptedException e) {
      response.cancel(true);
      sink.cancel();
      throw e;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof HttpTimeoutException) {
        throw new Unreachable("did not answer within " + seconds(deadline), cause);
      }
      if (cause instanceof TooLarge t) {
        throw new IOException(t.getMessage(), t);
      }
      IOException io =
          cause instanceof IOException i ? i : new IOException(String.valueOf(cause), cause);
      if (status[0] == 0) {
        throw new Unreachable("could not be reached (" + describe(io) + ")", io);
      }
      throw new IOException(
          "broke off after " + sink.bytes() + " bytes (" + describe(io) + ")", io);
    }
    if (status[0] == 404) {
      throw new IOException("has no such file (HTTP 404)");
    }
    if (status[0] != 200) {
      throw new IOException("answered HTTP " + status[0]);
    }
    long total = r.body();
    if (declared[0] >= 0 && total != declared[0]) {
      throw new IOException("sent " + total + " of the " + declared[0] + " bytes it announced");
    }
  }

  /** The server's file is not what its key promises. */
  private static final class Refused extends IOException {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  /** A limit the server's file went past. */
  private static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    TooLarge(String message) {
      super(message);
    }
  }

  /**
   * The response body written to the temporary file as it comes, counted; past the limit, or when
   * abandoned, the subscription is cancelled and the body completes with the reason.
   */
  private static final class FileBody implements HttpResponse.BodySubscriber<Long> {
    private final FileChannel out;
    private final long limit;
    private final AtomicLong bytes = new AtomicLong();
    private final CompletableFuture<Long> result = new CompletableFuture<>();
    private volatile Flow.Subscription subscription;
    private volatile IOException refused;

    FileBody(FileChannel out, long limit) {
      this.out = out;
      this.limit = limit;
    }

    long bytes() {
      return bytes.get();
    }

    void refuse(IOException why) {
      refused = why;
    }

    void cancel() {
      Flow.Subscription s = subscription;
      if (s != null) {
        s.cancel();
      }
      result.completeExceptionally(new IOException("abandoned"));
    }

    @Override
    public CompletionStage<Long> getBody() {
      return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      if (refused != null) {
        s.cancel();
        result.completeExceptionally(new TooLarge(refused.getMessage()));
        return;
      }
      s.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
      try {
        for (ByteBuffer b : items) {
          long total = bytes.addAndGet(b.remaining());
          if (total > limit) {
            throw new TooLarge("sent more than the limit of " + limit + " bytes");
          }
          while (b.hasRemaining()) {
            out.write(b);
          }
        }
        subscription.request(1);
      } catch (IOException e) {
        subscription.cancel();
        result.completeExceptionally(e);
      }
    }

    @Override
    public void onError(Throwable t) {
      result.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
      result.complete(bytes.get());
    }
  }

  private static Duration bounded(Duration d) {
    return d.compareTo(LONGEST) > 0 ? LONGEST : d;
  }

  private static String seconds(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + " s" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
  }

  private static String describe(IOException e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }

  /** Fails with {@link IllegalArgumentException} unless {@code key} is a key the store takes. */
  public static void checkKeyText(String key) {
    checkKey(key);
  }

  private static void checkKey(String key) {
    String[] parts = key.split("/", -1);
    if (parts.length != 3) {
      throw new IllegalArgumentException("not an SSQP key: " + key);
    }
    for (String p : parts) {
      if (!SEGMENT.matcher(p).matches() || p.equals(".") || p.equals("..")) {
        throw new IllegalArgumentException("not an SSQP key: " + key);
      }
    }
  }
}
