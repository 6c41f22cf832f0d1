package dev.clrscope.monitor.trace;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The runtime provider's keyword names as {@code --clrevents gc+jit+…} takes them: dotnet-trace's
 * names (ClrTraceEventParser.Keywords, lower case), with a few aliases.
 */
public final class ClrEventKeywords {
  private static final Map<String, Long> KEYWORDS = new LinkedHashMap<>();

  static {
    KEYWORDS.put("gc", 0x1L);
    KEYWORDS.put("gchandle", 0x2L);
    KEYWORDS.put("assemblyloader", 0x4L);
    KEYWORDS.put("loader", 0x8L);
    KEYWORDS.put("jit", 0x10L);
    KEYWORDS.put("ngen", 0x20L);
    KEYWORDS.put("startenumeration", 0x40L);
    KEYWORDS.put("endenumeration", 0x80L);
    KEYWORDS.put("security", 0x400L);
    KEYWORDS.put("appdomainresourcemanagement", 0x800L);
    KEYWORDS.put("jittracing", 0x1000L);
    KEYWORDS.put("interop", 0x2000L);
    KEYWORDS.put("contention", 0x4000L);
    KEYWORDS.put("exception", 0x8000L);
    KEYWORDS.put("threading", 0x10000L);
    KEYWORDS.put("jittedmethodiltonativemap", 0x20000L);
    KEYWORDS.put("overrideandsuppressngenevents", 0x40000L);
    KEYWORDS.put("type", 0x80000L);
    KEYWORDS.put("gcheapdump", 0x100000L);
    KEYWORDS.put("gcsampledobjectallocationhigh", 0x200000L);
    KEYWORDS.put("gcheapsurvivalandmovement", 0x400000L);
    KEYWORDS.put("managedheapcollect", 0x800000L);
    KEYWORDS.put("gcheapandtypenames", 0x1000000L);
    KEYWORDS.put("gcsampledobjectallocationlow", 0x2000000L);
    KEYWORDS.put("perftrack", 0x20000000L);
    KEYWORDS.put("stack", 0x40000000L);
    KEYWORDS.put("threadtransfer", 0x80000000L);
    KEYWORDS.put("debugger", 0x100000000L);
    KEYWORDS.put("monitoring", 0x200000000L);
    KEYWORDS.put("codesymbols", 0x400000000L);
    KEYWORDS.put("eventsource", 0x800000000L);
    KEYWORDS.put("compilation", 0x1000000000L);
    KEYWORDS.put("compilationdiagnostic", 0x2000000000L);
    KEYWORDS.put("methoddiagnostic", 0x4000000000L);
    KEYWORDS.put("typediagnostic", 0x8000000000L);
    KEYWORDS.put("jitinstrumentationdata", 0x10000000000L);
    KEYWORDS.put("profiler", 0x20000000000L);
    KEYWORDS.put("waithandle", 0x40000000000L);
    KEYWORDS.put("allocationsampling", 0x80000000000L);
  }

  private static final Map<String, String> ALIASES =
      Map.of(
          "binder",
          "assemblyloader",
          "fusion",
          "assemblyloader",
          "gcheapcollect",
          "managedheapcollect",
          "exceptions",
          "exception");

  private ClrEventKeywords() {}

  /**
   * The keyword mask for {@code gc+jit+…} (case-insensitive); a hexadecimal number is accepted as a
   * part too.
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
      name = ALIASES.getOrDefault(name, name);
      Long bits = KEYWORDS.get(name);
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
                + String.join(", ", KEYWORDS.keySet()));
      }
      mask |= bits;
    }
    if (mask == 0) {
      throw new IllegalArgumentException("--clrevents names no keyword: '" + text + "'");
    }
    return mask;
  }

  /** The known names, in bit order. */
  public static Iterable<String> names() {
    return KEYWORDS.keySet();
  }
}
