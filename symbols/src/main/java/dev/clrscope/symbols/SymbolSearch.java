package dev.clrscope.symbols;

import java.nio.file.Path;
import java.util.List;

/**
 * Where PDBs are looked for besides the assembly (its embedded PDB, the file beside it, the path
 * its CodeView entry names): the directories of {@code --symbol-path}, each as a flat directory or
 * laid out by SSQP key, then the symbol store (its cache, and its server when it has one).
 *
 * @param directories the {@code --symbol-path} directories, in order
 * @param store the symbol cache and server, or null to look in neither
 */
public record SymbolSearch(List<Path> directories, SymbolStore store) {
  /** Copies the list. */
  public SymbolSearch {
    directories = List.copyOf(directories);
  }
}
