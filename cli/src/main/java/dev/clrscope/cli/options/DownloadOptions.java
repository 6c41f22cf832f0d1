package dev.clrscope.cli.options;

import dev.clrscope.symbols.SymbolStore;
import java.net.URI;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * How files are downloaded from a symbol server ({@code --allow-http}, {@code --download-timeout}),
 * the same for the DAC ({@link DacSourceOptions}) and for PDBs ({@link SymbolServerOption}).
 */
public final class DownloadOptions {
  @Option(
      names = "--allow-http",
      description =
          "Accept a plain http:// symbol server. Anyone on the way can change what it sends, and"
              + " the DAC is code clrscope runs: without this only https:// is used.")
  boolean allowHttp;

  @Option(
      names = "--download-timeout",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      defaultValue = "120s",
      description =
          "How long one download from the symbol server may take, from the request to its last"
              + " byte; past it the download is abandoned and nothing of it is kept (default:"
              + " ${DEFAULT-VALUE}). 30s, 2m, or hh:mm:ss.")
  Duration deadline;

  /** Whether plain http was allowed. */
  boolean allowHttp() {
    return allowHttp;
  }

  /** {@code url} with how to download from it. */
  SymbolStore.Server server(URI url) {
    return new SymbolStore.Server(url, deadline, allowHttp);
  }

  /** The deadline of a download. */
  Duration deadline() {
    return deadline;
  }
}
