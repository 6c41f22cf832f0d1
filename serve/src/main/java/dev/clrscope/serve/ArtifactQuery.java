package dev.clrscope.serve;

import dev.clrscope.ipc.client.DumpType;
import dev.clrscope.ipc.discovery.ProcessId;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The query of an artifact request, checked: {@code pid} (required), for {@code /trace} {@code
 * duration} (seconds, or with a unit: {@code 500ms}, {@code 30s}, {@code 2m}; default 30 s, at most
 * an hour; dotnet-monitor's {@code durationSeconds} too) and {@code profile} (trace collect's
 * profiles, a comma list), for {@code /dump} {@code type} ({@code mini}, {@code heap}, {@code
 * triage}, {@code full}, or dotnet-monitor's {@code WithHeap}; default heap, as dotnet-monitor's).
 * Anything else is a 400 that names the parameter and what it takes.
 *
 * @param pid the process
 * @param duration how long a trace runs
 * @param profile the trace's profiles, or null for the default ones
 * @param dumpType the dump's type
 */
public record ArtifactQuery(long pid, Duration duration, String profile, DumpType dumpType) {
  /** A trace's length when the request gives none, as dotnet-monitor's. */
  public static final Duration DEFAULT_TRACE = Duration.ofSeconds(30);

  private static final Map<String, Set<String>> PARAMETERS =
      Map.of(
          "/gcdump", Set.of("pid"),
          "/trace", Set.of("pid", "duration", "durationSeconds", "profile"),
          "/dump", Set.of("pid", "type"));

  /**
   * Parses {@code rawQuery} of a request to {@code path}.
   *
   * @throws ArtifactProblem (400) naming the parameter and what it takes
   */
  public static ArtifactQuery parse(String rawQuery, String path) {
    Map<String, String> q = new LinkedHashMap<>();
    if (rawQuery != null && !rawQuery.isEmpty()) {
      if (rawQuery.length() > 2000) {
        throw bad("the query is " + rawQuery.length() + " characters long; " + usage(path));
      }
      for (String part : rawQuery.split("&", -1)) {
        int eq = part.indexOf('=');
        String key = decode(eq < 0 ? part : part.substring(0, eq));
        String value = eq < 0 ? "" : decode(part.substring(eq + 1));
        if (!PARAMETERS.get(path).contains(key)) {
          throw bad("unknown parameter '" + key + "'; " + usage(path));
        }
        if (q.put(key, value) != null) {
          throw bad("parameter '" + key + "' given twice");
        }
      }
    }
    String pidText = q.get("pid");
    if (pidText == null) {
      throw bad("pid is required; " + usage(path));
    }
    long pid;
    try {
      pid = ProcessId.parse(pidText);
    } catch (IllegalArgumentException e) {
      throw bad("pid: " + e.getMessage());
    }
    Duration duration = DEFAULT_TRACE;
    if (q.containsKey("duration") && q.containsKey("durationSeconds")) {
      throw bad("give duration or durationSeconds, not both");
    }
    if (q.containsKey("duration")) {
      duration = duration(q.get("duration"), true);
    } else if (q.containsKey("durationSeconds")) {
      duration = duration(q.get("durationSeconds"), false);
    }
    String profile = q.get("profile");
    if (profile != null && profile.isBlank()) {
      throw bad("profile is empty; leave it out for the default profiles");
    }
    DumpType type = DumpType.HEAP;
    if (q.containsKey("type")) {
      type = dumpType(q.get("type"));
    }
    return new ArtifactQuery(pid, duration, profile, type);
  }

  private static Duration duration(String text, boolean units) {
    Duration d = DurationText.parse(text);
    if (d == null || (!units && !text.strip().matches("\\d+(\\.\\d+)?"))) {
      throw bad(
          (units ? "duration" : "durationSeconds")
              + " takes "
              + (units ? DurationText.FORMS : "seconds (30)")
              + ", up to 3600 s; got '"
              + clip(text)
              + "'");
    }
    if (d.toMillis() < 1 || d.compareTo(ArtifactCollector.MAX_TRACE) > 0) {
      throw bad("duration must be from 1 ms to 3600 s, got '" + clip(text) + "'");
    }
    return d;
  }

  /**
   * A dump type by name: mini, heap (or dotnet-monitor's WithHeap), triage, full; any case.
   *
   * @throws ArtifactProblem (400) for another
   */
  public static DumpType dumpType(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    return switch (t) {
      case "mini" -> DumpType.MINI;
      case "heap", "withheap" -> DumpType.HEAP;
      case "triage" -> DumpType.TRIAGE;
      case "full" -> DumpType.FULL;
      default ->
          throw bad("type takes mini, heap (WithHeap), triage or full; got '" + clip(text) + "'");
    };
  }

  private static String usage(String path) {
    return switch (path) {
      case "/gcdump" -> "POST /gcdump?pid=PID";
      case "/trace" -> "POST /trace?pid=PID[&duration=30s][&profile=NAME,...]";
      default -> "POST /dump?pid=PID[&type=mini|heap|triage|full]";
    };
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw bad("the query is not URL-encoded properly: " + clip(s));
    }
  }

  /** A value as an error repeats it: at most 40 characters, on one line. */
  private static String clip(String s) {
    String one = s.replaceAll("[\\r\\n\\t]", " ");
    return one.length() > 40 ? one.substring(0, 40) + "..." : one;
  }

  private static ArtifactProblem bad(String message) {
    return new ArtifactProblem(400, message);
  }
}
