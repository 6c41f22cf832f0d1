package dev.clrscope.monitor.gc;

import java.util.ArrayList;
import java.util.List;

/**
 * Names for the coded fields of GCGlobalHeapHistory and GCPerHeapHistory (src/coreclr/gc/gcrecord.h
 * and gcinterface.h): pause mode, global mechanisms, compaction reasons and expansion mechanisms.
 */
public final class GcHeapFlags {
  private static final String[] PAUSE_MODES = {
    "Batch", "Interactive", "LowLatency", "SustainedLowLatency", "NoGC"
  };

  private static final String[] GLOBAL_MECHANISMS = {
    "Concurrent", "Compaction", "Promotion", "Demotion", "CardBundles", "Elevation"
  };

  private static final String[] COMPACT_REASONS = {
    "low_ephemeral",
    "high_frag",
    "no_gaps",
    "loh_forced",
    "last_gc",
    "induced_compacting",
    "fragmented_gen0",
    "high_mem_load",
    "high_mem_frag",
    "vhigh_mem_frag",
    "no_gc_mode",
    "aggressive_compacting",
  };

  private static final String[] EXPAND_MECHANISMS = {
    "reuse_normal", "reuse_bestfit", "new_seg_ep", "new_seg", "no_memory", "next_full_gc"
  };

  /** The runtime marks a per-heap mechanism as recorded with this bit. */
  private static final long MECHANISM_SET = 1L << 31;

  private GcHeapFlags() {}

  /** The GC latency mode ({@code GCSettings.LatencyMode}) during the GC. */
  public static String pauseMode(long code) {
    return code >= 0 && code < PAUSE_MODES.length ? PAUSE_MODES[(int) code] : "Mode" + code;
  }

  /** The set global mechanisms, such as {@code [Compaction, Promotion]}. */
  public static List<String> globalMechanisms(long bits) {
    List<String> names = new ArrayList<>();
    for (int bit = 0; bit < 32; bit++) {
      if ((bits & (1L << bit)) != 0) {
        names.add(bit < GLOBAL_MECHANISMS.length ? GLOBAL_MECHANISMS[bit] : "Mechanism" + bit);
      }
    }
    return names;
  }

  /** Why a heap compacted, or {@code null} if it swept. */
  public static String compactReason(long mechanism) {
    return perHeapMechanism(mechanism, COMPACT_REASONS, "compact");
  }

  /** How a heap grew, or {@code null} if it did not. */
  public static String expandMechanism(long mechanism) {
    return perHeapMechanism(mechanism, EXPAND_MECHANISMS, "expand");
  }

  /** A per-heap mechanism is {@code 1<<31 | 1<<index}; the highest other bit is the index. */
  private static String perHeapMechanism(long mechanism, String[] names, String prefix) {
    if ((mechanism & MECHANISM_SET) == 0) {
      return null;
    }
    long rest = mechanism & ~MECHANISM_SET & 0xFFFF_FFFFL;
    if (rest == 0) {
      return null;
    }
    int index = 63 - Long.numberOfLeadingZeros(rest);
    return index < names.length ? names[index] : prefix + index;
  }
}
