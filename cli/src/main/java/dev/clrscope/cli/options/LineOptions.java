package dev.clrscope.cli.options;

import dev.clrscope.symbols.SourceLines;
import dev.clrscope.symbols.SymbolSearch;
import dev.clrscope.symbols.SymbolStore;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Source lines of managed frames, as every command that prints frames takes them: on unless {@code
 * --no-lines}; PDBs looked for in the assembly, beside it, in the {@code --symbol-path}
 * directories, in the symbol cache, and on {@code --symbol-server} when one is given (never by
 * default: a report does not wait on the network for every framework assembly).
 */
public final class LineOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(
      names = "--no-lines",
      description = "Print frames without source lines (no PDB is read, no IL map asked for).")
  boolean noLines;

  @Option(
      names = "--symbol-path",
      paramLabel = "DIR",
      split = ":",
      description =
          "Directories to look for PDBs in (name.pdb, or laid out by SSQP key as a symbol server"
              + " serves them), after the assembly's own; repeatable, or DIR:DIR.")
  List<Path> symbolPath = new ArrayList<>();

  @Option(
      names = "--symbol-server",
      paramLabel = "URL",
      description =
          "A symbol server to download missing PDBs from by their SSQP key (for Microsoft's:"
              + " https://msdl.microsoft.com/download/symbols), kept in the symbol cache; by"
              + " default none is asked.")
  String symbolServer;

  /** Whether frames get lines. */
  public boolean enabled() {
    return !noLines;
  }

  /**
   * Where PDBs are found, or null with {@code --no-lines}; the directories and server are checked
   * here (usage errors).
   */
  public SourceLines sourceLines() {
    if (noLines) {
      return null;
    }
    for (Path dir : symbolPath) {
      if (!Files.isDirectory(dir)) {
        throw new ParameterException(
            spec.commandLine(), "--symbol-path " + dir + ": no such directory");
      }
    }
    URI server = symbolServer == null ? null : SymbolServerUrl.parse(spec, symbolServer);
    return new SourceLines(
        new SymbolSearch(
            symbolPath,
            new SymbolStore(
                SymbolStore.defaultCacheDir(),
                server,
                SourceLines.DOWNLOAD_TIMEOUT,
                SourceLines.MAX_DOWNLOAD_BYTES)));
  }
}
