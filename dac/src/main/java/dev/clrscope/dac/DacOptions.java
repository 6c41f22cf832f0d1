package dev.clrscope.dac;

import dev.clrscope.symbols.SymbolStore;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where the DAC comes from.
 *
 * @param dac a DAC to use whatever the runtime's build ({@code --dac PATH}), or null to find it
 * @param cacheDir the symbol cache (SSQP layout) looked in, and downloaded into
 * @param symbolServer the symbol server asked when the cache lacks it, or null to not download
 * @param downloadTimeout for connecting to the server and for the whole download
 * @param maxDownloadBytes a larger download is abandoned (a DAC is ~10 MB)
 */
public record DacOptions(
    Path dac, Path cacheDir, URI symbolServer, Duration downloadTimeout, long maxDownloadBytes) {
  /** Find the DAC: runtime directory, then the default cache, then Microsoft's symbol server. */
  public static DacOptions defaults() {
    return new DacOptions(
        null,
        SymbolStore.defaultCacheDir(),
        SymbolStore.MICROSOFT,
        Duration.ofSeconds(60),
        256L << 20);
  }

  /** These options with {@code dac} as the DAC. */
  public DacOptions withDac(Path dac) {
    return new DacOptions(dac, cacheDir, symbolServer, downloadTimeout, maxDownloadBytes);
  }

  /** These options with another symbol server (null: none). */
  public DacOptions withSymbolServer(URI server) {
    return new DacOptions(dac, cacheDir, server, downloadTimeout, maxDownloadBytes);
  }

  /** These options with another cache directory. */
  public DacOptions withCacheDir(Path dir) {
    return new DacOptions(dac, dir, symbolServer, downloadTimeout, maxDownloadBytes);
  }
}
