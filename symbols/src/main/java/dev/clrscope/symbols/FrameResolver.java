package dev.clrscope.symbols;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Names the frames of stacks: the one place where an instruction pointer becomes a frame name, for
 * {@code trace convert}, {@code trace report}, {@code alloc} and the watching commands. Sources in
 * order: the managed code map (methods from the trace's method events), the perf map, the native
 * modules of the process's maps with their ELF symbols. What none of them covers prints as {@code
 * module!0xADDR} when a file is mapped there, else {@code 0xADDR}; never blank.
 *
 * <p>Each distinct address is resolved once and given a small int id; each distinct name has one id
 * too, so callers count frames in primitive arrays indexed by id.
 *
 * <p>A frame's source line ({@link #frame}, {@link #siteId}) comes from the managed code map when
 * it keeps lines ({@link ManagedCodeMap#withLines}). A frame that is not the innermost holds a
 * return address, the instruction after its call: its line is the call's, looked up at the address
 * less one, as debuggers do (and its method too, when the call was the method's last instruction).
 * A site is a distinct name and line; sites have ids as names do. Not thread-safe.
 */
public final class FrameResolver {
  private final ManagedCodeMap managed;
  private final PerfMap perfMap;
  private final ProcessMaps maps;
  private final boolean signatures;

  /** Address to name id. */
  private final AddressIds nameIds = new AddressIds();

  /** Address to site id, for innermost frames and for return addresses. */
  private final AddressIds leafSites = new AddressIds();

  private final AddressIds callerSites = new AddressIds();

  private final Map<String, Integer> idByName = new HashMap<>();
  private final List<String> names = new ArrayList<>();

  /** Sites: (name id, line id) packed in a long, to site id; and back. */
  private final Map<Long, Integer> idBySite = new HashMap<>();

  private int[] siteNames = new int[64];
  private int[] siteLines = new int[64];
  private int siteCount = 1;
  private final Map<SourceLine, Integer> idByLine = new HashMap<>();
  private final List<SourceLine> lines = new ArrayList<>();

  /**
   * @param signatures whether managed names carry their parameter types
   */
  public FrameResolver(
      ManagedCodeMap managed, PerfMap perfMap, ProcessMaps maps, boolean signatures) {
    this.managed = managed;
    this.perfMap = perfMap;
    this.maps = maps;
    this.signatures = signatures;
    names.add(""); // id 0 means "not resolved yet" in the cache
    lines.add(null); // line id 0: no line
  }

  /** Managed names only (the watching commands, live). */
  public static FrameResolver managedOnly(ManagedCodeMap managed) {
    return new FrameResolver(managed, null, null, false);
  }

  /**
   * Every source a saved trace has: its methods ({@code managed}, fed the trace's method events by
   * the one pass that reads it), the maps sidecar beside it ({@link ProcessMaps#sidecarOf}) with
   * the ELF files it names, and the target's perf map if this machine still has it.
   *
   * @param pid the trace's process, from its header
   */
  public static FrameResolver forTrace(
      Path trace, long pid, ManagedCodeMap managed, boolean signatures) {
    ProcessMaps maps = ProcessMaps.forTrace(trace);
    PerfMap perf = pid > 0 ? PerfMap.forProcess(pid) : null;
    return new FrameResolver(managed, perf, maps, signatures);
  }

  /** The managed methods known. */
  public ManagedCodeMap managed() {
    return managed;
  }

  /** Whether frames may carry lines (the managed code map keeps them). */
  public boolean hasLines() {
    return managed.hasLines();
  }

  /** The id of {@code ip}'s frame name (ids start at 1). */
  public int frameId(long ip) {
    int id = nameIds.get(ip);
    if (id == 0) {
      id = idOf(resolve(ip));
      nameIds.put(ip, id);
    }
    return id;
  }

  /** The name of frame id {@code id}. */
  public String name(int id) {
    return names.get(id);
  }

  /** The frame name of {@code ip}. */
  public String name(long ip) {
    return names.get(frameId(ip));
  }

  /** Number of distinct names so far, plus one: ids are below this. */
  public int idLimit() {
    return names.size();
  }

  /**
   * The id of the site (name and line) of the frame at {@code ip}, cached per address (ids start at
   * 1).
   *
   * @param returnAddress whether {@code ip} is a return address (any frame but the innermost)
   */
  public int siteId(long ip, boolean returnAddress) {
    AddressIds cache = returnAddress ? callerSites : leafSites;
    int id = cache.get(ip);
    if (id == 0) {
      Frame f = resolveFrame(ip, returnAddress);
      id = siteOf(idOf(f.name()), f.line());
      cache.put(ip, id);
    }
    return id;
  }

  /** The name id of site {@code site}. */
  public int siteName(int site) {
    return siteNames[site];
  }

  /** The line of site {@code site}, or null. */
  public SourceLine siteLine(int site) {
    return lines.get(siteLines[site]);
  }

  /** The frame of site {@code site}. */
  public Frame siteFrame(int site) {
    return new Frame(names.get(siteNames[site]), lines.get(siteLines[site]));
  }

  /** Number of distinct sites so far, plus one: site ids are below this. */
  public int siteLimit() {
    return siteCount;
  }

  /** The frame (name and line) at {@code ip}, cached per address. */
  public Frame frame(long ip, boolean returnAddress) {
    return siteFrame(siteId(ip, returnAddress));
  }

  private int siteOf(int nameId, SourceLine line) {
    int lineId = 0;
    if (line != null) {
      Integer l = idByLine.get(line);
      if (l == null) {
        l = lines.size();
        lines.add(line);
        idByLine.put(line, l);
      }
      lineId = l;
    }
    long key = (long) nameId << 32 | lineId;
    Integer id = idBySite.get(key);
    if (id == null) {
      id = siteCount++;
      if (id == siteNames.length) {
        siteNames = Arrays.copyOf(siteNames, id * 2);
        siteLines = Arrays.copyOf(siteLines, id * 2);
      }
      siteNames[id] = nameId;
      siteLines[id] = lineId;
      idBySite.put(key, id);
    }
    return id;
  }

  private int idOf(String name) {
    Integer id = idByName.get(name);
    if (id == null) {
      id = names.size();
      names.add(name);
      idByName.put(name, id);
    }
    return id;
  }

  /** Resolves an address through every source, uncached. */
  public String resolve(long ip) {
    int m = managed.indexOf(ip);
    if (m >= 0) {
      return managed.name(m, signatures);
    }
    if (perfMap != null) {
      String p = perfMap.nameOrNull(ip);
      if (p != null) {
        return p;
      }
    }
    if (maps != null) {
      String n = maps.nameOrNull(ip);
      if (n != null) {
        return n;
      }
    }
    return hex(ip);
  }

  /**
   * The frame at {@code ip}, uncached: its name ({@link #resolve}) and its line. For a return
   * address, both are looked up at the address less one when that is another method's code (the
   * call was the last instruction of its method), and the line always is.
   */
  public Frame resolveFrame(long ip, boolean returnAddress) {
    if (!managed.hasLines()) {
      return Frame.of(resolve(ip));
    }
    if (returnAddress) {
      long call = ip - 1;
      int m = managed.indexOf(call);
      if (m >= 0) {
        String name = managed.name(m, signatures);
        return new Frame(name, managed.lineOf(call));
      }
      return Frame.of(resolve(ip));
    }
    return new Frame(resolve(ip), managed.lineOf(ip));
  }

  /**
   * What could not be used to name native frames (a sidecar or library that is no regular file, a
   * damaged library) and to give lines (a PDB refused, damaged or Windows), one line each, for the
   * caller to warn about.
   */
  public List<String> problems() {
    List<String> all = new ArrayList<>(maps == null ? List.of() : maps.problems());
    all.addAll(managed.lineProblems());
    return all;
  }

  /** How an address nothing names prints: {@code 0x} and the address in lower-case hex. */
  public static String hex(long ip) {
    return "0x" + Long.toHexString(ip);
  }

  /** Open addressing from an address to an int id; a slot is empty when its id is 0. */
  private static final class AddressIds {
    private long[] addresses = new long[1 << 12];
    private int[] ids = new int[1 << 12];
    private int count;

    int get(long ip) {
      int mask = addresses.length - 1;
      int slot = (int) mix(ip) & mask;
      while (ids[slot] != 0) {
        if (addresses[slot] == ip) {
          return ids[slot];
        }
        slot = (slot + 1) & mask;
      }
      return 0;
    }

    void put(long ip, int id) {
      int mask = addresses.length - 1;
      int slot = (int) mix(ip) & mask;
      while (ids[slot] != 0 && addresses[slot] != ip) {
        slot = (slot + 1) & mask;
      }
      if (ids[slot] == 0) {
        count++;
      }
      addresses[slot] = ip;
      ids[slot] = id;
      if (count * 2 > addresses.length) {
        grow();
      }
    }

    private void grow() {
      long[] oldAddresses = addresses;
      int[] oldIds = ids;
      addresses = new long[oldAddresses.length * 2];
      ids = new int[oldIds.length * 2];
      int mask = addresses.length - 1;
      for (int i = 0; i < oldIds.length; i++) {
        if (oldIds[i] != 0) {
          int slot = (int) mix(oldAddresses[i]) & mask;
          while (ids[slot] != 0) {
            slot = (slot + 1) & mask;
          }
          addresses[slot] = oldAddresses[i];
          ids[slot] = oldIds[i];
        }
      }
    }

    private static long mix(long x) {
      x ^= x >>> 33;
      x *= 0xff51afd7ed558ccdL;
      x ^= x >>> 33;
      return x;
    }
  }
}
