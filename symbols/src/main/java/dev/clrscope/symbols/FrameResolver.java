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
 * too, so callers count frames in primitive arrays indexed by id. Not thread-safe.
 */
public final class FrameResolver {
  private final ManagedCodeMap managed;
  private final PerfMap perfMap;
  private final ProcessMaps maps;
  private final boolean signatures;

  /** Open addressing from address to name id; slot empty when {@code ids[slot] == 0}. */
  private long[] addresses = new long[1 << 12];

  private int[] ids = new int[1 << 12];
  private int cached;
  private final Map<String, Integer> idByName = new HashMap<>();
  private final List<String> names = new ArrayList<>();

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

  /** The id of {@code ip}'s frame name (ids start at 1). */
  public int frameId(long ip) {
    int mask = addresses.length - 1;
    int slot = (int) mix(ip) & mask;
    while (ids[slot] != 0) {
      if (addresses[slot] == ip) {
        return ids[slot];
      }
      slot = (slot + 1) & mask;
    }
    int id = idOf(resolve(ip));
    addresses[slot] = ip;
    ids[slot] = id;
    if (++cached * 2 > addresses.length) {
      grow();
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
   * What could not be used to name native frames (a sidecar or library that is no regular file, a
   * damaged library), one line each, for the caller to warn about.
   */
  public List<String> problems() {
    return maps == null ? List.of() : maps.problems();
  }

  /** Forgets cached names: call after the managed map has grown (live sessions). */
  public void invalidate() {
    Arrays.fill(ids, 0);
    cached = 0;
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

  /** How an address nothing names prints: {@code 0x} and the address in lower-case hex. */
  public static String hex(long ip) {
    return "0x" + Long.toHexString(ip);
  }
}
