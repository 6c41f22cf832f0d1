package dev.clrscope.cli.options;

import dev.clrscope.symbols.SymbolStore;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --symbol-server URL}: where the commands that print frames download PDBs the machine lacks
 * (by their SSQP key, into the symbol cache); none by default. How they are downloaded: {@link
 * DownloadOptions}.
 */
public final class SymbolServerOption {
  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(
      names = "--symbol-server",
      paramLabel = "URL",
      description =
          "A symbol server to download missing PDBs from by their SSQP key (for Microsoft's:"
              + " https://msdl.microsoft.com/download/symbols), kept in the symbol cache; by"
              + " default none is asked.")
  String symbolServer;

  @Mixin DownloadOptions download;

  /**
   * The server with how to download from it, checked (a usage error otherwise: plain http needs
   * {@code --allow-http}), or null for none.
   */
  public SymbolStore.Server server() {
    return symbolServer == null
        ? null
        : download.server(SymbolServerUrl.parse(spec, symbolServer, "", download.allowHttp()));
  }
}
