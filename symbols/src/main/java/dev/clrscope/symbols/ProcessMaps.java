package dev.clrscope.symbols;

import dev.clrscope.nettrace.InputFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which files a process had mapped where, as {@code /proc/PID/maps} lists them ({@code start-end
 * perms offset dev inode path}), and the native names they give: an address inside a mapping of
 * {@code libcoreclr.so} is looked up in that file's ELF symbols at {@code address - start +
 * offset}. Only mappings of files (a path starting with {@code /}) are kept.
 *
 * <p>A trace records addresses, not modules, so {@code trace collect} saves the target's maps in a
 * sidecar file beside the trace ({@link #sidecarOf}), and a later report reads it: the libraries
 * themselves are read from this machine at the same paths, so a report made elsewhere names only
 * the modules ({@code libcoreclr.so!0x7f...}) unless the same files are there.
 */
public final class ProcessMaps {
  private final long[] starts;
  private final long[] ends;
  private final long[] offsets;
  private final String[] paths;
  private final Map<String, ElfSymbols> symbols = new HashMap<>();

  /** What was skipped and why (a sidecar or library that could not be used), for a warning. */
  private final List<String> problems = new ArrayList<>();

  /**
   * Where the process's files are seen from here: {@code /proc/PID/root} for a live process (its
   * mount namespace: a container's libraries), or {@code null} to read the paths as they are.
   */
  private Path root;

  private ProcessMaps(long[] starts, long[] ends, long[] offsets, String[] paths) {
    this.starts = starts;
    this.ends = ends;
    this.offsets = offsets;
    this.paths = paths;
  }

  /** No mappings. */
  public static ProcessMaps empty() {
    return parse("");
  }

  /** The sidecar file that holds the maps of the process a trace was taken from. */
  public static Path sidecarOf(Path trace) {
    return trace.resolveSibling(trace.getFileName() + ".maps");
  }

  /**
   * The text of {@code /proc/PID/maps}, or {@code null} when it cannot be read (gone, no rights).
   */
  public static String snapshot(long pid) {
    try {
      return Files.readString(Path.of("/proc/" + pid + "/maps"), StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Saves {@code mapsText} beside {@code trace} ({@link #sidecarOf}); a sidecar that cannot be
   * written costs native names only, so failing to write it is not an error.
   *
   * @return whether it was written
   */
  public static boolean writeSidecar(Path trace, String mapsText) {
    try {
      Files.writeString(sidecarOf(trace), mapsText, StandardCharsets.UTF_8);
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** The maps of a live process, or none when they cannot be read. */
  public static ProcessMaps ofProcess(long pid) {
    String text = snapshot(pid);
    if (text == null) {
      return empty();
    }
    ProcessMaps maps = parse(text);
    maps.root = Path.of("/proc/" + pid + "/root");
    return maps;
  }

  /** The most a sidecar may hold: a process's maps are some hundred KB. */
  private static final long MAX_SIDECAR_BYTES = 64L << 20;

  /** The maps saved beside {@code trace}, or none. */
  public static ProcessMaps forTrace(Path trace) {
    Path side = sidecarOf(trace);
    if (!Files.exists(side)) {
      return empty();
    }
    try {
      return parse(InputFile.readString(side, MAX_SIDECAR_BYTES));
    } catch (IOException | RuntimeException e) {
      ProcessMaps none = empty();
      none.problems.add(
          "ignored " + side + " (" + reason(e) + "): native frames are named by address alone");
      return none;
    }
  }

  /** Parses maps text; lines that are not file mappings are skipped. */
  public static ProcessMaps parse(String text) {
    int n = 0;
    long[] s = new long[64];
    long[] e = new long[64];
    long[] o = new long[64];
    String[] p = new String[64];
    for (String line : text.split("\n", -1)) {
      String[] f = line.strip().split("\\s+", 6);
      // Files only: not [heap], [stack], anonymous memory, nor the memfd the runtime double-maps
      // its JIT'd code through (/memfd:doublemapper), which is no module.
      if (f.length < 6 || !f[5].startsWith("/") || f[5].startsWith("/memfd:")) {
        continue;
      }
      int dash = f[0].indexOf('-');
      if (dash < 0) {
        continue;
      }
      try {
        long start = Long.parseUnsignedLong(f[0].substring(0, dash), 16);
        long end = Long.parseUnsignedLong(f[0].substring(dash + 1), 16);
        long offset = Long.parseUnsignedLong(f[2], 16);
        if (n == s.length) {
          s = Arrays.copyOf(s, n * 2);
          e = Arrays.copyOf(e, n * 2);
          o = Arrays.copyOf(o, n * 2);
          p = Arrays.copyOf(p, n * 2);
        }
        s[n] = start;
        e[n] = end;
        o[n] = offset;
        p[n] = f[5].endsWith(" (deleted)") ? f[5].substring(0, f[5].length() - 10) : f[5];
        n++;
      } catch (NumberFormatException ex) {
        // Not a maps line.
      }
    }
    // /proc lists mappings in address order; a sidecar written by us keeps it.
    return new ProcessMaps(
        Arrays.copyOf(s, n), Arrays.copyOf(e, n), Arrays.copyOf(o, n), Arrays.copyOf(p, n));
  }

  private int mappingOf(long ip) {
    int lo = 0;
    int hi = starts.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(starts[mid], ip) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return hi >= 0 && Long.compareUnsigned(ip, ends[hi]) < 0 ? hi : -1;
  }

  /** The file mapped at {@code ip}, or {@code null}. */
  public String pathAt(long ip) {
    int i = mappingOf(ip);
    return i < 0 ? null : paths[i];
  }

  /**
   * The native name of {@code ip}: {@code module!symbol} when the mapped file's ELF symbols cover
   * it, {@code module!0xADDR} when only the module is known, {@code null} when no file is mapped
   * there.
   */
  public String nameOrNull(long ip) {
    int i = mappingOf(ip);
    if (i < 0) {
      return null;
    }
    String path = paths[i];
    String module = path.substring(path.lastIndexOf('/') + 1);
    ElfSymbols elf = symbols.get(path);
    if (elf == null) {
      elf = ElfSymbols.read(file(path));
      symbols.put(path, elf);
      if (elf.problem() != null) {
        problems.add(
            "skipped the symbols of "
                + elf.problem()
                + "; its frames are named "
                + module
                + "!0x...");
      }
    }
    String symbol = elf.nameAtOffset(ip - starts[i] + offsets[i]);
    return module + "!" + (symbol != null ? symbol : FrameResolver.hex(ip));
  }

  /** The file at {@code path} as this process sees it: through the target's root if readable. */
  private Path file(String path) {
    return seenThrough(root, path);
  }

  /**
   * The file a process names {@code path}, as this process sees it: through {@code root} (the
   * process's {@code /proc/PID/root}: its container's files) when readable there, else the path.
   */
  public static Path seenThrough(Path root, String path) {
    if (root != null && path.startsWith("/")) {
      Path inRoot = root.resolve(path.substring(1));
      if (Files.isReadable(inRoot)) {
        return inRoot;
      }
    }
    return Path.of(path);
  }

  /**
   * What could not be used so far, one line each: a sidecar that is no regular file or too big, a
   * library that is no regular file or whose headers claim more than it holds.
   */
  public List<String> problems() {
    return List.copyOf(problems);
  }

  private static String reason(Exception e) {
    if (e instanceof FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    return e.getMessage() == null ? e.toString() : e.getMessage();
  }

  /** Number of file mappings. */
  public int size() {
    return starts.length;
  }

  /** Receives one file mapping. */
  public interface MappingVisitor {
    /**
     * @param start the mapping's first address
     * @param end the address after its last
     * @param offset the file offset mapped at {@code start}
     * @param path the file, as the process sees it
     */
    void mapping(long start, long end, long offset, String path);
  }

  /** Every file mapping, in address order. */
  public void forEach(MappingVisitor visitor) {
    for (int i = 0; i < starts.length; i++) {
      visitor.mapping(starts[i], ends[i], offsets[i], paths[i]);
    }
  }
}
