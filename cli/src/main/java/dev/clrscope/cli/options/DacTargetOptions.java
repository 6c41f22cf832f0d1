package dev.clrscope.cli.options;

import dev.clrscope.dac.DacOptions;
import dev.clrscope.symbols.SourceLines;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --dac} and {@code --symbol-server} of the commands that read a target through its
 * runtime's DAC ({@code analyze}, {@code triage}): which DAC, and where to download it (and, given,
 * the PDBs the machine lacks).
 */
public final class DacTargetOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(
      names = "--dac",
      paramLabel = "PATH",
      description =
          "The DAC to use (libmscordaccore.so of the target's exact runtime build), instead of"
              + " finding it.")
  Path dac;

  @Option(
      names = "--symbol-server",
      paramLabel = "URL|none",
      description =
          "Where to download the DAC when the runtime directory and the cache lack it (default:"
              + " Microsoft's public symbol server); none to never download. Given, PDBs the"
              + " machine lacks are downloaded from it too (by default they are not).")
  String symbolServer;

  /** The DAC's options; a malformed URL is a usage error. */
  public DacOptions dacOptions() {
    DacOptions options = DacOptions.defaults();
    if (dac != null) {
      options = options.withDac(dac);
    }
    if (symbolServer != null) {
      if (symbolServer.equalsIgnoreCase("none")) {
        options = options.withSymbolServer(null);
      } else {
        options = options.withSymbolServer(SymbolServerUrl.parse(mixee, symbolServer, " or none"));
      }
    }
    return options;
  }

  /**
   * Where frames' PDBs are found, or null with {@code --no-lines}: PDBs are downloaded only from a
   * server given here, the default one being the DAC's.
   */
  public SourceLines sourceLines(LineOptions lines, DacOptions options) {
    return lines.sourceLines(symbolServer == null ? null : options.symbolServer());
  }
}
