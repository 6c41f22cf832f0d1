package dev.clrscope.cli.options;

import java.net.URI;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --symbol-server URL}: where the commands that print frames download PDBs the machine lacks
 * (by their SSQP key, into the symbol cache); none by default.
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

  /** The server, checked (a usage error otherwise), or null for none. */
  public URI url() {
    return symbolServer == null ? null : SymbolServerUrl.parse(spec, symbolServer);
  }
}
