package dev.clrscope.cli.options;

import dev.clrscope.symbols.SourceLines;
import dev.clrscope.symbols.SymbolSearch;
import dev.clrscope.symbols.SymbolStore;
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
 * directories, in the symbol cache, and on a symbol server when one is given ({@link
 * SymbolServerOption}; never by default: a report does not wait on the network for every framework
 * assembly).
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

  /** Whether frames get lines. */
  public boolean enabled() {
    return !noLines;
  }

  /**
   * Where PDBs are found, or null with {@code --no-lines}; the directories are checked here (usage
   * errors).
   *
   * @param server the symbol server to download PDBs from, or null for none
   */
  public SourceLines sourceLines(SymbolStore.Server server) {
    if (noLines) {
      return null;
    }
    for (Path dir : symbolPath) {
      if (!Files.isDirectory(dir)) {
        throw new ParameterException(
            spec.commandLine(), "--symbol-path " + dir + ": no such directory");
      }
    }
    return new SourceLines(
        new SymbolSearch(
            symbolPath,
            new SymbolStore(
                SymbolStore.defaultCacheDir(),
                server,
                SourceLines.MAX_DOWNLOAD_BYTES,
                note -> {})));
  }
}
