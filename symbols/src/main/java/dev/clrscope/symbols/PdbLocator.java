package dev.clrscope.symbols;

import dev.clrscope.nettrace.InputFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds a module's portable PDB as debuggers do, and refuses one of another build: the PDB embedded
 * in the assembly (its debug directory's Embedded Portable PDB entry), the file beside the assembly
 * named as its CodeView entry names it, the path that entry holds, each {@code --symbol-path}
 * directory (flat, or laid out by SSQP key), then the symbol store by the PDB's SSQP key (its
 * cache, and its server). A candidate is used only when its id is the one the assembly (or the
 * runtime's module event) names; a Windows PDB is no portable PDB. Files are opened only through
 * {@link InputFile}.
 */
public final class PdbLocator {
  /** A PDB larger than this is not read: the biggest framework PDBs are a few tens of MB. */
  static final long MAX_PDB = 512L << 20;

  private final SymbolSearch search;
  private boolean serverDown;

  public PdbLocator(SymbolSearch search) {
    this.search = search;
  }

  /** A PDB found, and where. */
  public record Found(PortablePdb pdb, String where) {}

  /**
   * Why no PDB was used: a sentence for a warning, and whether it deserves one (a PDB refused,
   * damaged or Windows; a server that could not be reached) rather than the usual absence of PDBs
   * for framework assemblies, which is said only in the log.
   */
  public static final class NotFound extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean worthWarning;

    NotFound(String message, boolean worthWarning) {
      super(message);
      this.worthWarning = worthWarning;
    }

    public boolean worthWarning() {
      return worthWarning;
    }
  }

  /** The portable PDB of {@code module}. */
  public Found find(ManagedModule module) throws NotFound {
    String name = module.name();
    PdbId want = module.pdbId();
    String pdbPath = module.pdbPath();
    List<String> problems = new ArrayList<>();
    List<String> looked = new ArrayList<>();
    Path il = null;
    List<PeDebugInfo.Checksum> checksums = List.of();
    if (module.ilPath() != null && !module.ilPath().isEmpty()) {
      il = Path.of(module.ilPath());
      try {
        PeDebugInfo pe = read(il);
        PeDebugInfo.CodeView cv = pe.portableCodeView();
        if (cv == null) {
          if (!pe.codeViews().isEmpty()) {
            throw new NotFound(
                "no portable PDB for "
                    + name
                    + ": it names a Windows PDB ("
                    + SourceLine.fileName(pe.codeViews().get(0).path())
                    + "), which clrscope does not read",
                true);
          }
          if (want == null) {
            throw new NotFound(name + " names no PDB", false);
          }
        } else if (want != null && !want.matches(cv.id())) {
          problems.add(
              il
                  + " is another build than the one that ran (its PDB id "
                  + cv.id()
                  + ", not "
                  + want
                  + ")");
        } else {
          want = cv.id();
          pdbPath = cv.path();
          checksums = pe.checksums();
          if (pe.hasEmbeddedPdb()) {
            PortablePdb pdb;
            byte[] bytes;
            try {
              bytes = pe.embeddedPdb();
              pdb = PortablePdb.parse(bytes);
            } catch (PdbFormatException e) {
              throw new NotFound(
                  "the PDB embedded in " + il + " is damaged: " + e.getMessage(), true);
            }
            if (!want.matches(pdb.id())) {
              problems.add("the PDB embedded in " + il + " has id " + pdb.id() + ", not " + want);
            } else if (!checksummed(pdb, bytes, checksums)) {
              throw new NotFound(
                  "the PDB embedded in " + il + " is damaged: it does not hash to its checksum",
                  true);
            } else {
              return new Found(pdb, "embedded in " + il);
            }
          }
        }
      } catch (NoSuchFileException e) {
        looked.add("no assembly at " + il);
      } catch (FileSystemException e) {
        problems.add(il + ": " + (e.getReason() == null ? e.toString() : e.getReason()));
      } catch (IOException e) {
        problems.add(il + ": " + e.getMessage());
      } catch (PdbFormatException e) {
        problems.add(il + " is a damaged assembly: " + e.getMessage());
      }
    }
    if (want == null) {
      throw new NotFound(joined(name + ": no PDB id known", problems, looked), !problems.isEmpty());
    }
    String pdbName = pdbPath != null && !pdbPath.isEmpty() ? SourceLine.fileName(pdbPath) : null;
    if (pdbName == null || pdbName.isEmpty()) {
      String base = name.contains(".") ? name.substring(0, name.lastIndexOf('.')) : name;
      pdbName = base + ".pdb";
    }
    String key;
    try {
      key = want.ssqpKey(pdbName);
      SymbolStore.checkKeyText(key);
    } catch (IllegalArgumentException e) {
      key = null;
    }
    Set<Path> candidates = new LinkedHashSet<>();
    if (il != null && il.toAbsolutePath().getParent() != null) {
      candidates.add(il.toAbsolutePath().getParent().resolve(pdbName));
    }
    if (pdbPath != null && pdbPath.startsWith("/")) {
      candidates.add(Path.of(pdbPath));
    }
    for (Path dir : search.directories()) {
      candidates.add(dir.resolve(pdbName));
      if (key != null) {
        candidates.add(dir.resolve(key));
      }
    }
    for (Path c : candidates) {
      Found f = tryFile(c, want, checksums, il, "at " + c, problems, looked);
      if (f != null) {
        return f;
      }
    }
    SymbolStore store = search.store();
    if (store != null && key != null) {
      try {
        PdbId wanted = want;
        SymbolStore.Fetched fetched = store.fetch(key, file -> notItsPdb(file, wanted));
        String where =
            fetched.downloaded() ? "from " + store.url(key) : "in the cache " + fetched.file();
        Found f = tryFile(fetched.file(), want, checksums, il, where, problems, looked);
        if (f != null) {
          return f;
        }
      } catch (SymbolStore.NotFound e) {
        looked.add(e.getMessage());
        if (e.fileRefused()) {
          problems.add(e.getMessage());
        }
        if (e.serverUnreachable() && !serverDown) {
          serverDown = true;
          problems.add(e.getMessage() + " (not asked again in this run)");
        }
      }
    }
    throw new NotFound(joined("no PDB for " + name, problems, looked), !problems.isEmpty());
  }

  /**
   * Why a file of the symbol store (cached or downloaded) is not the PDB {@code want} names: null
   * when it is; then it is checked as every PDB found is ({@link #tryFile}).
   */
  private static String notItsPdb(Path file, PdbId want) {
    try {
      byte[] bytes = InputFile.readAllBytes(file, MAX_PDB);
      if (PortablePdb.looksWindows(bytes)) {
        return "is a Windows PDB, no portable PDB";
      }
      PortablePdb pdb = PortablePdb.parse(bytes);
      return want.matches(pdb.id())
          ? null
          : "is the PDB of another build (id " + pdb.id() + ", not " + want + ")";
    } catch (IOException e) {
      return "cannot be read: " + e.getMessage();
    } catch (PdbFormatException e) {
      return "is no readable portable PDB: " + e.getMessage();
    }
  }

  /**
   * Whether {@code pdb} hashes to one of the checksums its assembly records for its algorithm (or
   * the assembly records none).
   */
  private static boolean checksummed(
      PortablePdb pdb, byte[] bytes, List<PeDebugInfo.Checksum> checksums) {
    if (checksums.isEmpty()) {
      return true;
    }
    for (PeDebugInfo.Checksum c : checksums) {
      if (pdb.matchesChecksum(bytes, c)) {
        return true;
      }
    }
    return false;
  }

  private Found tryFile(
      Path file,
      PdbId want,
      List<PeDebugInfo.Checksum> checksums,
      Path il,
      String where,
      List<String> problems,
      List<String> looked) {
    if (!Files.exists(file)) {
      looked.add("not " + where);
      return null;
    }
    byte[] bytes;
    try {
      bytes = InputFile.readAllBytes(file, MAX_PDB);
    } catch (FileSystemException e) {
      problems.add(file + ": " + (e.getReason() == null ? e.toString() : e.getReason()));
      return null;
    } catch (IOException e) {
      problems.add(file + ": " + e.getMessage());
      return null;
    }
    if (PortablePdb.looksWindows(bytes)) {
      problems.add(file + " is a Windows PDB, no portable PDB");
      return null;
    }
    PortablePdb pdb;
    try {
      pdb = PortablePdb.parse(bytes);
    } catch (PdbFormatException e) {
      problems.add(file + " is damaged: " + e.getMessage());
      return null;
    }
    if (!want.matches(pdb.id())) {
      problems.add(
          file + " is the PDB of another build (id " + pdb.id() + ", not " + want + "): refused");
      return null;
    }
    if (!checksummed(pdb, bytes, checksums)) {
      problems.add(
          file
              + " is damaged: it does not hash to the checksum "
              + (il == null ? "its assembly" : il.getFileName())
              + " records");
      return null;
    }
    return new Found(pdb, where);
  }

  private static PeDebugInfo read(Path il) throws IOException, PdbFormatException {
    try (FileChannel ch = InputFile.open(il)) {
      long size = ch.size();
      return PeDebugInfo.read(
          (offset, dst) -> {
            ByteBuffer b = ByteBuffer.wrap(dst);
            while (b.hasRemaining()) {
              if (ch.read(b, offset + b.position()) < 0) {
                return false;
              }
            }
            return true;
          },
          size,
          false);
    }
  }

  private static String joined(String head, List<String> problems, List<String> looked) {
    StringBuilder sb = new StringBuilder(head);
    List<String> all = problems.isEmpty() ? looked : problems;
    if (!all.isEmpty()) {
      sb.append(": ").append(String.join("; ", all));
    }
    return sb.toString();
  }
}
