package dev.clrscope.symbols;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Source lines of managed code: a module's PDB is looked for once ({@link PdbLocator}), when a
 * frame in it first needs a line, and kept; a method's sequence points are decoded once. What goes
 * wrong is said once per module ({@link #problems()}), and its frames print without lines: a PDB
 * refused (another build's), damaged, or a Windows one. That most framework assemblies have no PDB
 * on the machine is not a problem worth a warning; it is logged. Not thread-safe.
 */
public final class SourceLines {
  private static final Logger log = LoggerFactory.getLogger(SourceLines.class);

  /** The largest PDB downloaded. */
  public static final long MAX_DOWNLOAD_BYTES = PdbLocator.MAX_PDB;

  private final PdbLocator locator;
  private final Map<ManagedModule, PortablePdb> pdbs = new HashMap<>();
  private final List<String> problems = new ArrayList<>();

  public SourceLines(SymbolSearch search) {
    this.locator = new PdbLocator(search);
  }

  /**
   * The line of IL offset {@code ilOffset} of method {@code methodToken} in {@code module}, or null
   * when its PDB is not found or has no line there.
   */
  public SourceLine lineOf(ManagedModule module, int methodToken, int ilOffset) {
    PortablePdb pdb = pdbOf(module);
    if (pdb == null) {
      return null;
    }
    try {
      return pdb.lineOf(methodToken, ilOffset);
    } catch (PdbFormatException e) {
      problems.add(
          "the PDB of "
              + module.name()
              + " is damaged ("
              + e.getMessage()
              + "): its frames print without lines");
      pdbs.put(module, null);
      return null;
    }
  }

  /** The module's PDB, looked for on first use; null when there is none to use. */
  public PortablePdb pdbOf(ManagedModule module) {
    if (pdbs.containsKey(module)) {
      return pdbs.get(module);
    }
    PortablePdb pdb = null;
    try {
      PdbLocator.Found found = locator.find(module);
      log.debug("the PDB of {}: {}", module.name(), found.where());
      pdb = found.pdb();
    } catch (PdbLocator.NotFound e) {
      if (e.worthWarning()) {
        problems.add(e.getMessage() + "; its frames print without lines");
      } else {
        log.debug("{}", e.getMessage());
      }
    }
    pdbs.put(module, pdb);
    return pdb;
  }

  /** What kept lines from frames, one line per module, for the caller to warn about. */
  public List<String> problems() {
    return List.copyOf(problems);
  }
}
