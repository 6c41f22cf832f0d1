package dev.clrscope.dac;

import dev.clrscope.symbols.SymbolStore;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Where the DAC comes from.
 *
 * @param dac a DAC to use whatever the runtime's build ({@code --dac PATH}), or null to find it
 * @param cacheDir the symbol cache (SSQP layout) looked in, and downloaded into
 * @param symbolServer the symbol server asked when the cache lacks it, or null to not download
 * @param downloadTimeout the deadline of a whole download, from the request to its last byte
 * @param maxDownloadBytes a larger download is abandoned (a DAC is ~10 MB)
 * @param allowHttp whether a plain {@code http} symbol server may be used ({@code --allow-http})
 * @param notes one line each for a DAC passed over and why (another user's runtime directory, a
 *     cache not trusted, a cached file replaced); the search goes on after each
 */
public record DacOptions(
    Path dac,
    Path cacheDir,
    URI symbolServer,
    Duration downloadTimeout,
    long maxDownloadBytes,
    boolean allowHttp,
    Consumer<String> notes) {
  /**
   * Find the DAC: runtime directory, then the default cache, then Microsoft's symbol server
   * (https), notes dropped.
   */
  public static DacOptions defaults() {
    return new DacOptions(
        null,
        SymbolStore.defaultCacheDir(),
        SymbolStore.MICROSOFT,
        SymbolStore.DEFAULT_DEADLINE,
        256L << 20,
        false,
        note -> {});
  }

  /** These options with {@code dac} as the DAC. */
  public DacOptions withDac(Path dac) {
    return new DacOptions(
        dac, cacheDir, symbolServer, downloadTimeout, maxDownloadBytes, allowHttp, notes);
  }

  /** These options with another symbol server (null: none). */
  public DacOptions withSymbolServer(URI server) {
    return new DacOptions(
        dac, cacheDir, server, downloadTimeout, maxDownloadBytes, allowHttp, notes);
  }

  /** These options with another cache directory. */
  public DacOptions withCacheDir(Path dir) {
    return new DacOptions(
        dac, dir, symbolServer, downloadTimeout, maxDownloadBytes, allowHttp, notes);
  }

  /** These options with another deadline for a download. */
  public DacOptions withDownloadTimeout(Duration timeout) {
    return new DacOptions(dac, cacheDir, symbolServer, timeout, maxDownloadBytes, allowHttp, notes);
  }

  /** These options with plain http allowed or not. */
  public DacOptions withAllowHttp(boolean allow) {
    return new DacOptions(
        dac, cacheDir, symbolServer, downloadTimeout, maxDownloadBytes, allow, notes);
  }

  /** These options with the notes going to {@code sink}. */
  public DacOptions withNotes(Consumer<String> sink) {
    return new DacOptions(
        dac, cacheDir, symbolServer, downloadTimeout, maxDownloadBytes, allowHttp, sink);
  }

  /** The symbol server with how to download from it, or null for none. */
  public SymbolStore.Server server() {
    return symbolServer == null
        ? null
        : new SymbolStore.Server(symbolServer, downloadTimeout, allowHttp);
  }
}
