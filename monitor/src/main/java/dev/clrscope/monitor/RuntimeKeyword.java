package dev.clrscope.monitor;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The keywords of the runtime provider (Microsoft-Windows-DotNETRuntime), mirroring the keyword
 * table of ClrEtwAll.man; the names are dotnet-trace's ({@code --clrevents}, TraceEvent's
 * ClrTraceEventParser.Keywords), lower case. The one place these bits are written down.
 */
public enum RuntimeKeyword {
  GC(0x1L),
  GC_HANDLE(0x2L),
  ASSEMBLY_LOADER(0x4L),
  LOADER(0x8L),
  JIT(0x10L),
  NGEN(0x20L),
  START_ENUMERATION(0x40L),
  END_ENUMERATION(0x80L),
  SECURITY(0x400L),
  APP_DOMAIN_RESOURCE_MANAGEMENT(0x800L),
  JIT_TRACING(0x1000L),
  INTEROP(0x2000L),
  CONTENTION(0x4000L),
  EXCEPTION(0x8000L),
  THREADING(0x10000L),
  JITTED_METHOD_IL_TO_NATIVE_MAP(0x20000L),
  OVERRIDE_AND_SUPPRESS_NGEN_EVENTS(0x40000L),
  TYPE(0x80000L),
  GC_HEAP_DUMP(0x100000L),
  GC_SAMPLED_OBJECT_ALLOCATION_HIGH(0x200000L),
  GC_HEAP_SURVIVAL_AND_MOVEMENT(0x400000L),
  /** Enabling it makes the runtime run a blocking gen2 GC (GCHeapCollect). */
  MANAGED_HEAP_COLLECT(0x800000L),
  GC_HEAP_AND_TYPE_NAMES(0x1000000L),
  GC_SAMPLED_OBJECT_ALLOCATION_LOW(0x2000000L),
  PERF_TRACK(0x20000000L),
  STACK(0x40000000L),
  THREAD_TRANSFER(0x80000000L),
  DEBUGGER(0x100000000L),
  MONITORING(0x200000000L),
  CODE_SYMBOLS(0x400000000L),
  EVENT_SOURCE(0x800000000L),
  COMPILATION(0x1000000000L),
  COMPILATION_DIAGNOSTIC(0x2000000000L),
  METHOD_DIAGNOSTIC(0x4000000000L),
  TYPE_DIAGNOSTIC(0x8000000000L),
  JIT_INSTRUMENTATION_DATA(0x10000000000L),
  PROFILER(0x20000000000L),
  WAIT_HANDLE(0x40000000000L),
  ALLOCATION_SAMPLING(0x80000000000L);

  private static final Map<String, RuntimeKeyword> ALIASES =
      Map.of(
          "binder", ASSEMBLY_LOADER,
          "fusion", ASSEMBLY_LOADER,
          "gcheapcollect", MANAGED_HEAP_COLLECT,
          "exceptions", EXCEPTION);

  private final long mask;

  RuntimeKeyword(long mask) {
    this.mask = mask;
  }

  /** The keyword's bit. */
  public long mask() {
    return mask;
  }

  /** The mask of several keywords. */
  public static long maskOf(RuntimeKeyword... keywords) {
    long mask = 0;
    for (RuntimeKeyword k : keywords) {
      mask |= k.mask;
    }
    return mask;
  }

  /** dotnet-trace's name: the constant's name without underscores, lower case. */
  public String label() {
    return name().replace("_", "").toLowerCase(Locale.ROOT);
  }

  /**
   * The mask for {@code gc+jit+…} (case-insensitive, with a few aliases); a hexadecimal number is
   * accepted as a part too.
   *
   * @throws IllegalArgumentException naming the unknown keyword and listing the known ones
   */
  public static long parse(String text) {
    long mask = 0;
    for (String raw : text.split("\\+", -1)) {
      String name = raw.strip().toLowerCase(Locale.ROOT);
      if (name.isEmpty()) {
        continue;
      }
      Long bits = byLabel(name);
      if (bits == null && name.startsWith("0x")) {
        try {
          bits = Long.parseUnsignedLong(name.substring(2), 16);
        } catch (NumberFormatException e) {
          bits = null;
        }
      }
      if (bits == null) {
        throw new IllegalArgumentException(
            "unknown CLR event keyword '"
                + raw.strip()
                + "' in --clrevents; known: "
                + String.join(", ", labels()));
      }
      mask |= bits;
    }
    if (mask == 0) {
      throw new IllegalArgumentException("--clrevents names no keyword: '" + text + "'");
    }
    return mask;
  }

  private static Long byLabel(String name) {
    RuntimeKeyword alias = ALIASES.get(name);
    if (alias != null) {
      return alias.mask;
    }
    for (RuntimeKeyword k : values()) {
      if (k.label().equals(name)) {
        return k.mask;
      }
    }
    return null;
  }

  /** The known names, in bit order. */
  public static List<String> labels() {
    List<String> names = new ArrayList<>();
    for (RuntimeKeyword k : values()) {
      names.add(k.label());
    }
    return names;
  }
}
