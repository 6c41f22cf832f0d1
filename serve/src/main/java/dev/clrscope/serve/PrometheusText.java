package dev.clrscope.serve;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Prometheus text exposition format (version 0.0.4) of every watched process's series.
 *
 * <ul>
 *   <li>A metric is named after its instrument, every character outside {@code [a-zA-Z0-9_:]}
 *       replaced by {@code _} (and a leading digit prefixed with {@code _}): {@code
 *       dotnet.gc.collections} → {@code dotnet_gc_collections}, {@code cpu-usage} → {@code
 *       cpu_usage}. The Meter or EventSource is the {@code provider} label, as OpenTelemetry's
 *       exporter keeps the meter's name out of the metric's.
 *   <li>Counters (only grow) are {@code counter}s named {@code …_total}, their value the running
 *       total; gauges, up-down counters and EventCounters' means are {@code gauge}s; histograms are
 *       {@code summary}s: {@code {quantile="0.5"}} etc., {@code _sum} and {@code _count} added up
 *       since the watch began.
 *   <li>Every series has {@code pid}, {@code name} and {@code runtime_version} labels, the
 *       provider, and its own tags (names sanitised as metric names are, values escaped: {@code
 *       \\}, {@code \"}, {@code \n}).
 *   <li>One {@code # HELP} and {@code # TYPE} per metric, all its series together. Two providers
 *       with a same-named instrument of different kinds would clash: the later gets its provider as
 *       a prefix.
 * </ul>
 */
public final class PrometheusText {
  private PrometheusText() {}

  /** The content type Prometheus asks for. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private record Family(String name, String type, String help, List<String> lines) {}

  /** The exposition of {@code processes}. */
  public static String render(List<ProcessMetrics> processes) {
    Map<String, Family> families = new LinkedHashMap<>();
    for (ProcessMetrics p : processes) {
      for (SeriesState s : p.series()) {
        if (s.type() == dev.clrscope.monitor.counters.InstrumentType.HISTOGRAM
            ? s.quantiles().isEmpty() && s.count() == 0
            : s.value() == null) {
          continue;
        }
        String type =
            s.isCounter()
                ? "counter"
                : s.type() == dev.clrscope.monitor.counters.InstrumentType.HISTOGRAM
                    ? "summary"
                    : "gauge";
        String base = metricName(s.name());
        String name = type.equals("counter") ? base + "_total" : base;
        Family f = families.get(name);
        if (f != null && !f.type().equals(type)) {
          name = metricName(s.provider()) + "_" + name;
          f = families.get(name);
        }
        if (f == null) {
          f =
              new Family(
                  name,
                  type,
                  s.name()
                      + (s.unit().isEmpty() ? "" : " (" + s.unit() + ")")
                      + ", from "
                      + s.provider(),
                  new ArrayList<>());
          families.put(name, f);
        }
        String labels = labels(p.process(), s);
        if (type.equals("summary")) {
          for (Map.Entry<Double, Double> q : s.quantiles().entrySet()) {
            f.lines()
                .add(
                    name
                        + "{"
                        + labels
                        + ",quantile=\""
                        + number(q.getKey())
                        + "\"} "
                        + number(q.getValue()));
          }
          f.lines().add(name + "_sum{" + labels + "} " + number(s.sum()));
          f.lines().add(name + "_count{" + labels + "} " + s.count());
        } else {
          f.lines().add(name + "{" + labels + "} " + number(s.value()));
        }
      }
    }
    StringBuilder out = new StringBuilder();
    for (Family f : families.values()) {
      out.append("# HELP ").append(f.name()).append(' ').append(escapeHelp(f.help())).append('\n');
      out.append("# TYPE ").append(f.name()).append(' ').append(f.type()).append('\n');
      for (String line : f.lines()) {
        out.append(line).append('\n');
      }
    }
    return out.toString();
  }

  /** A valid metric (or label) name: {@code [a-zA-Z_:][a-zA-Z0-9_:]*}. */
  static String metricName(String raw) {
    StringBuilder sb = new StringBuilder(raw.length() + 1);
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || c == '_'
              || c == ':'
              || (c >= '0' && c <= '9');
      sb.append(ok ? c : '_');
    }
    if (sb.length() == 0 || Character.isDigit(sb.charAt(0))) {
      sb.insert(0, '_');
    }
    return sb.toString();
  }

  /** A label name: a metric name without colons, and not starting with {@code __} (reserved). */
  static String labelName(String raw) {
    String n = metricName(raw).replace(':', '_');
    return n.startsWith("__") ? "tag" + n : n;
  }

  private static String labels(ProcessFacts p, SeriesState s) {
    StringBuilder sb = new StringBuilder();
    sb.append("pid=\"").append(p.pid()).append('"');
    sb.append(",name=\"").append(escapeLabel(p.name())).append('"');
    sb.append(",runtime_version=\"").append(escapeLabel(p.runtimeVersion())).append('"');
    sb.append(",provider=\"").append(escapeLabel(s.provider())).append('"');
    for (Map.Entry<String, String> t : new java.util.TreeMap<>(s.tags()).entrySet()) {
      String n = labelName(t.getKey());
      if (n.equals("pid")
          || n.equals("name")
          || n.equals("runtime_version")
          || n.equals("provider")
          || n.equals("quantile")) {
        n = "tag_" + n;
      }
      sb.append(',').append(n).append("=\"").append(escapeLabel(t.getValue())).append('"');
    }
    return sb.toString();
  }

  /** Label values escape backslash, double quote and line feed. */
  static String escapeLabel(String v) {
    if (v == null) {
      return "";
    }
    return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  /** HELP text escapes backslash and line feed. */
  static String escapeHelp(String v) {
    return v.replace("\\", "\\\\").replace("\n", "\\n");
  }

  /** A sample value: Go's float syntax; integers without a fraction, NaN and ±Inf by name. */
  static String number(Double v) {
    if (v == null || v.isNaN()) {
      return "NaN";
    }
    if (v.isInfinite()) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString(v.longValue());
    }
    return String.format(Locale.ROOT, "%s", v);
  }
}
