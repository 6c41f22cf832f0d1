package dev.clrscope.serve;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.clrscope.ipc.discovery.DotnetProcess;
import dev.clrscope.monitor.counters.CounterRequest;
import dev.clrscope.monitor.counters.CounterSource;
import dev.clrscope.monitor.counters.Measurement;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs the collection rules on the counters the watcher sees: per rule and process, how long the
 * counter has been beyond its threshold; once that reaches the rule's {@code for}, and the rule has
 * not fired for that process within its cool-down, it fires: an artifact is collected (on a thread
 * of its own, never the session's) and the firing is said on {@code announce} and kept for {@code
 * GET /rules}.
 */
public final class RuleEngine implements FleetWatcher.MeasurementListener, AutoCloseable {
  private static final JsonFactory JSON = new JsonFactory();

  /** How many firings {@code /rules} keeps per rule. */
  private static final int KEPT_FIRINGS = 20;

  /**
   * One firing.
   *
   * @param pid the process
   * @param at when it fired
   * @param value the counter's value then
   * @param file the artifact's path once written, or null
   * @param error why none was written, or null (both null: still collecting)
   */
  public record Firing(
      long pid, Instant at, double value, String file, String error, Triaged triaged) {
    Firing(long pid, Instant at, double value, String file, String error) {
      this(pid, at, value, file, error, null);
    }
  }

  /**
   * What triage made of a rule's dump.
   *
   * @param report the report's file, beside the dump ({@code DUMP.triage.json}), or null
   * @param findings the findings, most severe first
   * @param error why there is no report, or null
   */
  public record Triaged(String report, List<DumpTriage.Finding> findings, String error) {}

  private final List<CollectionRule> rules;
  private final Map<CollectionRule, ArtifactCollector> collectors;
  private final DumpTriage triage;
  private final Consumer<String> announce;
  private final ExecutorService collecting =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "clrscope-serve-rules");
            t.setDaemon(true);
            return t;
          });

  /** Per rule and pid: since when (nanoTime) the counter is beyond, and when it last fired. */
  private final Map<String, Long> beyondSince = new HashMap<>();

  private final Map<String, Long> firedAt = new HashMap<>();
  private final Map<CollectionRule, List<Firing>> firings = new HashMap<>();

  /** The collectors the engine opened for rules' own directories, closed with it. */
  private final List<ArtifactCollector> own = new ArrayList<>();

  /**
   * How many refreshes a process is given to publish a rule's counter before the rule says it
   * cannot fire for it: a Meter's instruments all come in its first interval.
   */
  static final int REFRESHES_TO_APPEAR = 3;

  /** How long that is. */
  private final Duration appearWithin;

  /** Per pid: when its first value came, and the counters it published since. */
  private final Map<Long, Instant> firstValue = new HashMap<>();

  private final Map<Long, Set<String>> published = new HashMap<>();

  /** The pids whose rules were checked for counters that never came. */
  private final Set<Long> checked = new HashSet<>();

  /**
   * @param rules the rules
   * @param serves serve's collector, for the rules without an {@code into} directory
   * @param open opens a collector on a rule's {@code into} directory (one per directory)
   * @param announce where a firing is said (serve's stderr)
   * @param refresh how often the processes publish their counters
   */
  public RuleEngine(
      List<CollectionRule> rules,
      ArtifactCollector serves,
      Function<Path, ArtifactCollector> open,
      Consumer<String> announce,
      Duration refresh) {
    this(rules, serves, open, announce, refresh, null);
  }

  /**
   * An engine whose rules' dumps are triaged by {@code triage} (null: not triaged): the report is
   * kept beside the dump, its findings listed with the firing.
   */
  public RuleEngine(
      List<CollectionRule> rules,
      ArtifactCollector serves,
      Function<Path, ArtifactCollector> open,
      Consumer<String> announce,
      Duration refresh,
      DumpTriage triage) {
    this.triage = triage;
    this.rules = List.copyOf(rules);
    this.announce = announce;
    this.appearWithin = refresh.multipliedBy(REFRESHES_TO_APPEAR);
    Map<CollectionRule, ArtifactCollector> byRule = new HashMap<>();
    Map<Path, ArtifactCollector> byDir = new HashMap<>();
    for (CollectionRule r : rules) {
      ArtifactCollector c = serves;
      if (r.into() != null) {
        c = byDir.get(r.into());
        if (c == null) {
          c = open.apply(r.into());
          byDir.put(r.into(), c);
          own.add(c);
        }
      }
      byRule.put(r, c);
    }
    this.collectors = Map.copyOf(byRule);
  }

  /**
   * The counters the sessions must ask for: {@code requests} with each rule's provider added when
   * they leave it out.
   *
   * @throws IllegalArgumentException when a provider is asked for with a list of counters that
   *     leaves a rule's out
   */
  public static List<CounterRequest> counters(
      List<CounterRequest> requests, List<CollectionRule> rules) {
    List<CounterRequest> out = new ArrayList<>(requests);
    for (CollectionRule r : rules) {
      CounterRequest same =
          out.stream()
              .filter(c -> c.provider().equalsIgnoreCase(r.provider()))
              .findFirst()
              .orElse(null);
      if (same == null) {
        out.add(new CounterRequest(r.provider(), CounterSource.ANY, List.of()));
      } else if (!same.wants(r.counter())) {
        throw new IllegalArgumentException(
            "rule "
                + r.name()
                + " watches "
                + r.counter()
                + " of "
                + r.provider()
                + ", which --counters leaves out; add it to the provider's list");
      }
    }
    return out;
  }

  @Override
  public void measured(DotnetProcess process, Measurement m) {
    noteUnseen(process, m);
    Double value = m.primary();
    if (value == null) {
      return;
    }
    for (CollectionRule rule : rules) {
      if (!m.name().equals(rule.counter())
          || !m.provider().equalsIgnoreCase(rule.provider())
          || (rule.process() != null && !process.isNamed(rule.process()))) {
        continue;
      }
      check(rule, process, value);
    }
  }

  /**
   * Once a process has published for {@link #REFRESHES_TO_APPEAR} refreshes, says once per rule
   * that applies to it and whose counter it never published that the rule cannot fire for it: a
   * misspelt counter, or one this runtime does not have, would otherwise stay silent forever.
   */
  private synchronized void noteUnseen(DotnetProcess process, Measurement m) {
    long pid = process.pid();
    if (checked.contains(pid)) {
      return;
    }
    Instant first = firstValue.computeIfAbsent(pid, p -> m.time());
    published.computeIfAbsent(pid, p -> new HashSet<>()).add(seriesOf(m.provider(), m.name()));
    if (Duration.between(first, m.time()).compareTo(appearWithin) < 0) {
      return;
    }
    checked.add(pid);
    Set<String> seen = published.remove(pid);
    firstValue.remove(pid);
    for (CollectionRule rule : rules) {
      if ((rule.process() == null || process.isNamed(rule.process()))
          && !seen.contains(seriesOf(rule.provider(), rule.counter()))) {
        announce.accept(
            "rule "
                + rule.name()
                + " cannot fire for process "
                + pid
                + " ("
                // The most telling of its names: the app's for dotnet app.dll.
                + List.copyOf(process.knownNames()).get(process.knownNames().size() - 1)
                + "): it has not published "
                + rule.counter()
                + " of "
                + rule.provider()
                + " in "
                + REFRESHES_TO_APPEAR
                + " refreshes (`clrscope counters list -p "
                + pid
                + "` shows what it publishes)");
      }
    }
  }

  private static String seriesOf(String provider, String counter) {
    return provider.toLowerCase(java.util.Locale.ROOT) + "\u0000" + counter;
  }

  private synchronized void check(CollectionRule rule, DotnetProcess process, double value) {
    String key = rule.name() + "\u0000" + process.pid();
    boolean beyond = rule.above() ? value > rule.threshold() : value < rule.threshold();
    if (!beyond) {
      beyondSince.remove(key);
      return;
    }
    long now = System.nanoTime();
    long since = beyondSince.computeIfAbsent(key, k -> now);
    if (now - since < rule.sustained().toNanos()) {
      return;
    }
    Long last = firedAt.get(key);
    if (last != null && now - last < rule.coolDown().toNanos()) {
      return;
    }
    firedAt.put(key, now);
    beyondSince.remove(key);
    long pid = process.pid();
    announce.accept(
        "rule "
            + rule.name()
            + " fired for process "
            + pid
            + ": "
            + rule.condition()
            + " (now "
            + PrometheusText.number(value)
            + "); collecting a "
            + rule.collect().name().toLowerCase(java.util.Locale.ROOT)
            + "; next firing for this process not before "
            + DurationText.show(rule.coolDown()));
    Firing pending = new Firing(pid, Instant.now(), value, null, null);
    keep(rule, null, pending);
    collecting.execute(() -> collect(rule, pending));
  }

  /** Adds {@code firing} to the rule's list, in place of {@code replaced} when that is there. */
  private synchronized void keep(CollectionRule rule, Firing replaced, Firing firing) {
    List<Firing> l = firings.computeIfAbsent(rule, r -> new ArrayList<>());
    int i = replaced == null ? -1 : l.indexOf(replaced);
    if (i >= 0) {
      l.set(i, firing);
      return;
    }
    l.add(firing);
    if (l.size() > KEPT_FIRINGS) {
      l.remove(0);
    }
  }

  private void collect(CollectionRule rule, Firing pending) {
    long pid = pending.pid();
    Instant at = pending.at();
    double value = pending.value();
    ArtifactCollector c = collectors.get(rule);
    Firing f;
    try {
      Artifact a =
          switch (rule.collect()) {
            case GCDUMP -> c.gcdump(pid);
            case TRACE -> c.trace(pid, rule.traceDuration(), rule.traceProfile());
            case DUMP -> c.dump(pid, rule.dumpType());
          };
      f = new Firing(pid, at, value, a.file().toString(), null);
      announce.accept("rule " + rule.name() + ": wrote " + a.file() + " (" + a.bytes() + " bytes)");
      if (rule.collect() == CollectionRule.Kind.DUMP && triage != null) {
        // Listed as written (and being triaged) while triage reads it.
        keep(rule, pending, f);
        keep(rule, f, new Firing(pid, at, value, f.file(), null, triage(rule, a.file())));
        return;
      }
    } catch (ArtifactProblem e) {
      f = new Firing(pid, at, value, null, e.getMessage());
      announce.accept("rule " + rule.name() + ": no artifact: " + e.getMessage());
    }
    keep(rule, pending, f);
  }

  /** Triages a rule's dump: its report beside it (owner only, as the dump), its findings said. */
  private Triaged triage(CollectionRule rule, Path dump) {
    Path file = dump.resolveSibling(dump.getFileName() + ".triage.json");
    try {
      byte[] report = triage.report(dump);
      List<DumpTriage.Finding> findings = DumpTriage.findings(report);
      java.nio.file.Files.write(file, report);
      java.nio.file.Files.setPosixFilePermissions(
          file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
      announce.accept(
          "rule "
              + rule.name()
              + ": triaged "
              + dump
              + ": "
              + (findings.isEmpty()
                  ? "nothing found"
                  : findings.size()
                      + " finding(s), the first "
                      + findings.get(0).severity()
                      + ": "
                      + findings.get(0).title())
              + " ("
              + file
              + ")");
      return new Triaged(file.toString(), findings, null);
    } catch (IOException | RuntimeException e) {
      announce.accept("rule " + rule.name() + ": could not triage " + dump + ": " + e.getMessage());
      return new Triaged(null, List.of(), String.valueOf(e.getMessage()));
    }
  }

  /** {@code GET /rules}: every rule, what it watches, and its last firings. */
  public synchronized byte[] statusJson() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartArray();
      for (CollectionRule r : rules) {
        g.writeStartObject();
        g.writeStringField("name", r.name());
        if (r.process() != null) {
          g.writeStringField("process", r.process());
        }
        g.writeStringField("provider", r.provider());
        g.writeStringField("counter", r.counter());
        g.writeStringField("when", r.condition());
        g.writeStringField("collect", r.collect().name().toLowerCase(java.util.Locale.ROOT));
        g.writeStringField("into", collectors.get(r).directory().toString());
        g.writeNumberField("coolDownSeconds", r.coolDown().toSeconds());
        g.writeArrayFieldStart("firings");
        for (Firing f : firings.getOrDefault(r, List.of())) {
          g.writeStartObject();
          g.writeNumberField("pid", f.pid());
          g.writeStringField("at", f.at().toString());
          g.writeNumberField("value", f.value());
          if (f.file() != null) {
            g.writeStringField("file", f.file());
          }
          if (f.error() != null) {
            g.writeStringField("error", f.error());
          }
          if (f.file() == null && f.error() == null) {
            g.writeBooleanField("collecting", true);
          }
          if (f.triaged() != null) {
            g.writeObjectFieldStart("triage");
            if (f.triaged().report() != null) {
              g.writeStringField("report", f.triaged().report());
            }
            if (f.triaged().error() != null) {
              g.writeStringField("error", f.triaged().error());
            }
            g.writeArrayFieldStart("findings");
            for (DumpTriage.Finding finding : f.triaged().findings()) {
              g.writeStartObject();
              g.writeStringField("kind", finding.kind());
              g.writeStringField("severity", finding.severity());
              g.writeStringField("title", finding.title());
              g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
          } else if (f.file() != null
              && triage != null
              && r.collect() == CollectionRule.Kind.DUMP) {
            g.writeBooleanField("triaging", true);
          }
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.write('\n');
    return out.toByteArray();
  }

  /**
   * Stops taking firings, then closes the collectors of the rules' own directories (which stops
   * their collections in flight); serve's own collector is its caller's to close.
   */
  @Override
  public void close() {
    collecting.shutdownNow();
    own.forEach(ArtifactCollector::close);
  }
}
