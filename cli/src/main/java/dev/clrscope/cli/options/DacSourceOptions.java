package dev.clrscope.cli.options;

import dev.clrscope.dac.DacOptions;
import dev.clrscope.symbols.SymbolStore;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Where a command that reads a target through the runtime's DAC ({@code analyze}, {@code dump-heap}
 * of a core or with {@code --exact}) gets it: {@code --dac}, {@code --symbol-server}, and how it is
 * downloaded ({@link DownloadOptions}). The DAC is looked for as docs/analyze.md says ("Where the
 * DAC comes from and why one is refused"); what is passed over is said on stderr.
 */
public final class DacSourceOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(
      names = "--dac",
      paramLabel = "PATH",
      description =
          "The DAC to use (libmscordaccore.so of the target's exact runtime build), instead of"
              + " finding it. It is checked before it is loaded: a file that is no DAC, or the DAC"
              + " of another runtime version, is refused.")
  Path dac;

  @Option(
      names = "--symbol-server",
      paramLabel = "URL|none",
      description =
          "Where to download the DAC when the runtime directory and the cache lack it (default:"
              + " Microsoft's public symbol server, https); none to never download. Given, PDBs the"
              + " machine lacks are downloaded from it too (by default they are not).")
  String symbolServer;

  @Mixin DownloadOptions download;

  /** The notes said so far: a live target at the prompt finds its DAC again for each pause. */
  private final Set<String> said = ConcurrentHashMap.newKeySet();

  /**
   * The options the DAC is found with; a {@code --symbol-server} that is no URL, or plain http
   * without {@code --allow-http}, is a usage error.
   *
   * @param notes where a line goes for each DAC passed over, and why
   */
  public DacOptions dacOptions(Consumer<String> notes) {
    DacOptions options =
        DacOptions.defaults()
            .withDownloadTimeout(download.deadline())
            .withAllowHttp(download.allowHttp())
            .withNotes(
                line -> {
                  if (said.add(line)) {
                    notes.accept(line);
                  }
                });
    if (dac != null) {
      options = options.withDac(dac);
    }
    if (symbolServer != null) {
      options =
          options.withSymbolServer(
              symbolServer.equalsIgnoreCase("none")
                  ? null
                  : SymbolServerUrl.parse(spec, symbolServer, " or none", download.allowHttp()));
    }
    return options;
  }

  /**
   * The server PDBs are downloaded from: the one given with {@code --symbol-server} (the default
   * one is the DAC's alone), or null.
   */
  public SymbolStore.Server pdbServer() {
    if (symbolServer == null || symbolServer.equalsIgnoreCase("none")) {
      return null;
    }
    return download.server(
        SymbolServerUrl.parse(spec, symbolServer, " or none", download.allowHttp()));
  }
}
