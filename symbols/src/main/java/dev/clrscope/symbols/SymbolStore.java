package dev.clrscope.symbols;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Files a symbol server serves by SSQP key (the runtime's DAC, portable PDBs) (the Simple Symbol
 * Query Protocol of dotnet/symstore: {@code GET <server>/<key>}), kept in a local cache directory
 * laid out by the same keys, so a file is downloaded once and a cache directory can be filled by
 * hand or by {@code dotnet-symbol}.
 *
 * <p>A download goes to a temporary file in the key's directory and is moved into place only when
 * whole, so a cut download never leaves a file that looks complete; it stops past {@link
 * #maxBytes()} and after the timeouts. Keys are checked: three path segments of a restricted
 * alphabet, never {@code ..}, so a key cannot reach outside the cache.
 */
public final class SymbolStore {
  /** Microsoft's public symbol server, where the runtime's DAC and PDBs are published. */
  public static final URI MICROSOFT = URI.create("https://msdl.microsoft.com/download/symbols");

  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._+-]{1,200}");

  private final Path cacheDir;
  private final URI server;
  private final Duration timeout;
  private final long maxBytes;
  private final HttpClient http;

  /** Why the server could not be reached, once it could not; then it is not asked again. */
  private volatile String unreachable;

  /**
   * @param cacheDir where files are kept, by key
   * @param server the symbol server, or null to use the cache only
   * @param timeout for connecting and for the whole download
   * @param maxBytes a download larger than this is abandoned
   */
  public SymbolStore(Path cacheDir, URI server, Duration timeout, long maxBytes) {
    this.cacheDir = cacheDir;
    this.server = server;
    this.timeout = timeout;
    this.maxBytes = maxBytes;
    this.http =
        server == null
            ? null
            : HttpClient.newBuilder()
                .connectTimeout(timeout)
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
    String base = server.toString();
    return URI.create(base.endsWith("/") ? base + key : base + "/" + key);
  }

  /** What {@link #fetch} found. */
  public record Fetched(Path file, boolean downloaded) {}

  /** Why {@link #fetch} found nothing: one phrase per place looked, for a one-line message. */
  public static final class NotFound extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean serverUnreachable;

    public NotFound(String message) {
      this(message, false);
    }

    NotFound(String message, boolean serverUnreachable) {
      super(message);
      this.serverUnreachable = serverUnreachable;
    }

    /**
     * Whether the server could not be reached or did not answer in time (rather than answered that
     * it has no such file): asking it again in this run would only wait again.
     */
    public boolean serverUnreachable() {
      return serverUnreachable;
    }
  }

  /** The server could not be reached, or did not answer within the timeout. */
  private static final class Unreachable extends IOException {
    private static final long serialVersionUID = 1L;

    Unreachable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * The file of {@code key}: from the cache, else downloaded into it.
   *
   * @throws NotFound with a message naming where it looked and what happened there
   */
  public Fetched fetch(String key) throws NotFound {
    Path cached = cachePath(key);
    if (Files.isRegularFile(cached)) {
      return new Fetched(cached, false);
    }
    String inCache = "not in the cache " + cached;
    if (server == null) {
      throw new NotFound(inCache + " (no symbol server)");
    }
    URI url = url(key);
    String down = unreachable;
    if (down != null) {
      // One wait for a server that does not answer is enough for a run: every module would wait.
      throw new NotFound(inCache + ", and " + server + " " + down + " (not asked again)", true);
    }
    try {
      download(url, cached);
      return new Fetched(cached, true);
    } catch (IOException e) {
      if (e instanceof Unreachable) {
        unreachable = e.getMessage();
      }
      throw new NotFound(inCache + ", and " + url + " " + e.getMessage(), e instanceof Unreachable);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NotFound(inCache + ", and the download of " + url + " was interrupted");
    }
  }

  private void download(URI url, Path target) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(url).timeout(timeout).GET().build();
    HttpResponse<InputStream> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (java.net.http.HttpTimeoutException e) {
      throw new Unreachable("did not answer within " + seconds(timeout), e);
    } catch (IOException e) {
      throw new Unreachable("could not be reached (" + describe(e) + ")", e);
    }
    try (InputStream body = response.body()) {
      int status = response.statusCode();
      if (status == 404) {
        throw new IOException("has no such file (HTTP 404)");
      }
      if (status != 200) {
        throw new IOException("answered HTTP " + status);
      }
      long declared = response.headers().firstValueAsLong("Content-Length").orElse(-1);
      if (declared > maxBytes) {
        throw new IOException("offers " + declared + " bytes, more than the limit of " + maxBytes);
      }
      Files.createDirectories(target.getParent());
      Path partial =
          Files.createTempFile(target.getParent(), target.getFileName().toString(), ".partial");
      try {
        long total = 0;
        try (OutputStream out = Files.newOutputStream(partial)) {
          byte[] buf = new byte[1 << 16];
          int n;
          while ((n = body.read(buf)) > 0) {
            total += n;
            if (total > maxBytes) {
              throw new IOException("sent more than the limit of " + maxBytes + " bytes");
            }
            out.write(buf, 0, n);
          }
        }
        if (declared >= 0 && total != declared) {
          throw new IOException("sent " + total + " of the " + declared + " bytes it announced");
        }
        try {
          Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(partial);
      }
    } catch (java.net.http.HttpTimeoutException e) {
      throw new Unreachable("did not send the file within " + seconds(timeout), e);
    }
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
