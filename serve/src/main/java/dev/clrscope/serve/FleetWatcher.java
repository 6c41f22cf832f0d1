package dev.clrscope.serve;

import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.client.DiagnosticsClient;
import dev.clrscope.ipc.client.EndpointConnectionSource;
import dev.clrscope.ipc.client.ProcessInfo;
import dev.clrscope.ipc.discovery.DotnetProcess;
import dev.clrscope.ipc.discovery.EndpointLocator;
import dev.clrscope.monitor.counters.CounterFeed;
import dev.clrscope.monitor.counters.CounterPlan;
import dev.clrscope.monitor.counters.CounterRequest;
import dev.clrscope.monitor.counters.Measurement;
import dev.clrscope.monitor.session.SessionRunner;
import dev.clrscope.monitor.session.StopSwitch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every .NET process of the host (the discovery {@code ps} uses, containers included), or those a
 * {@link ProcessSelection} names, each with one counters session through the {@link SessionRunner}:
 * a process that appears is attached at the next look, one that is gone (its stream ended, or it is
 * no longer listed) is dropped with its series, so nothing stale is exposed. A process that cannot
 * be attached (another user's, a runtime that refuses) is tried again after a while, not at every
 * look.
 */
public final class FleetWatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FleetWatcher.class);

  /** How long a process that could not be attached is left alone. */
  private static final Duration RETRY_AFTER = Duration.ofSeconds(60);

  /** How long attaching one process may take. */
  private static final Duration ATTACH_TIMEOUT = Duration.ofSeconds(3);

  /**
   * What to watch in each process.
   *
   * @param counters the {@code --counters} requests
   * @param refreshSeconds how often each process publishes
   * @param maxHistograms the runtime's histogram limit per session
   * @param maxTimeSeries its time-series limit
   * @param lookEvery how often the host's processes are listed
   * @param selection which of them are watched ({@code -p}, {@code -n}; all by default)
   */
  public record Request(
      List<CounterRequest> counters,
      double refreshSeconds,
      int maxHistograms,
      int maxTimeSeries,
      Duration lookEvery,
      ProcessSelection selection) {
    /** Copies the list. */
    public Request {
      counters = List.copyOf(counters);
    }
  }

  /** Hears every measurement of every watched process (the collection rules). */
  @FunctionalInterface
  public interface MeasurementListener {
    /** Called on the process's session thread: must return quickly. */
    void measured(DotnetProcess process, Measurement m);
  }

  private final EndpointLocator locator;
  private final Request request;
  private volatile MeasurementListener listener;
  private final Map<Long, WatchedProcess> watched = new ConcurrentHashMap<>();
  private final Map<Long, Long> failedAt = new HashMap<>();
  private final ScheduledExecutorService looker =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "clrscope-serve-discovery");
            t.setDaemon(true);
            return t;
          });

  /** A watcher of the processes {@code locator} lists. */
  public FleetWatcher(EndpointLocator locator, Request request) {
    this.locator = locator;
    this.request = request;
  }

  /** Sets who hears the measurements (before {@link #start()}). */
  public void listen(MeasurementListener l) {
    this.listener = l;
  }

  /** Looks now, then every {@link Request#lookEvery()}. */
  public void start() {
    look();
    long every = Math.max(100, request.lookEvery().toMillis());
    looker.scheduleWithFixedDelay(this::lookQuietly, every, every, TimeUnit.MILLISECONDS);
  }

  private void lookQuietly() {
    try {
      look();
    } catch (RuntimeException e) {
      // The next look tries again; one bad pass must not end the schedule.
      log.warn("listing the host's .NET processes failed", e);
    }
  }

  /** One pass: attach the new, drop the gone. */
  synchronized void look() {
    Map<Long, DotnetProcess> now = new HashMap<>();
    for (DotnetProcess p : locator.list()) {
      if (request.selection().selects(p)) {
        now.put(p.pid(), p);
      }
    }
    for (WatchedProcess w : new ArrayList<>(watched.values())) {
      long pid = w.facts().pid();
      if (!now.containsKey(pid) || w.runner().hasEnded()) {
        drop(pid, w);
      }
    }
    long nowMillis = System.currentTimeMillis();
    failedAt.keySet().retainAll(now.keySet());
    for (DotnetProcess p : now.values()) {
      Long failed = failedAt.get(p.pid());
      if (watched.containsKey(p.pid())
          || (failed != null && nowMillis - failed < RETRY_AFTER.toMillis())) {
        continue;
      }
      try {
        attach(p);
        failedAt.remove(p.pid());
      } catch (DiagnosticsException | IllegalStateException e) {
        failedAt.put(p.pid(), nowMillis);
        log.info("not watching process {}: {}", p.pid(), e.getMessage());
      }
    }
  }

  private void attach(DotnetProcess p) {
    DiagnosticsClient client =
        new DiagnosticsClient(new EndpointConnectionSource(p.endpoint()), ATTACH_TIMEOUT);
    ProcessInfo info = client.processInfo();
    String version = info.clrProductVersion() == null ? "" : info.clrProductVersion();
    ProcessFacts facts =
        new ProcessFacts(
            p.pid(),
            name(p, info),
            version,
            p.commandLine() != null ? p.commandLine() : nullToEmpty(info.commandLine()));
    CounterPlan plan =
        CounterPlan.of(
            request.counters(),
            request.refreshSeconds(),
            request.maxHistograms(),
            request.maxTimeSeries(),
            major(version));
    WatchedProcess w = new WatchedProcess(facts, plan);
    w.attach(
        SessionRunner.start(
            client,
            plan.sessionRequest(),
            new StopSwitch(),
            new CounterFeed(
                plan,
                u -> {
                  w.accept(u);
                  MeasurementListener l = listener;
                  if (l != null && u instanceof Measurement m && plan.wants(m)) {
                    l.measured(p, m);
                  }
                })));
    watched.put(p.pid(), w);
    log.info("watching process {} ({}, .NET {})", p.pid(), facts.name(), version);
  }

  /** The entry assembly for {@code dotnet app.dll}, else the process's own name. */
  private static String name(DotnetProcess p, ProcessInfo info) {
    String entry = info.entrypointAssembly();
    if (entry != null && !entry.isBlank()) {
      return entry;
    }
    return p.name() != null ? p.name() : "";
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  private static int major(String version) {
    int dot = version.indexOf('.');
    try {
      return Integer.parseInt(dot > 0 ? version.substring(0, dot) : version);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private void drop(long pid, WatchedProcess w) {
    watched.remove(pid);
    w.runner().close();
    log.info("process {} is gone: its series are dropped", pid);
  }

  /** Every watched process's series, by pid. */
  public List<ProcessMetrics> metrics() {
    List<ProcessMetrics> out = new ArrayList<>();
    for (WatchedProcess w : watched.values()) {
      if (!w.runner().hasEnded()) {
        out.add(new ProcessMetrics(w.facts(), w.series()));
      }
    }
    out.sort(Comparator.comparingLong(m -> m.process().pid()));
    return out;
  }

  /**
   * A watched process and what its runtime said was wrong with the session.
   *
   * @param process who
   * @param problem the runtime's complaint (another tool shares the metrics session with other
   *     settings, a limit reached), or null
   */
  public record Watched(ProcessFacts process, String problem) {}

  /** The watched processes, by pid. */
  public List<Watched> processes() {
    List<Watched> out = new ArrayList<>();
    for (WatchedProcess w : watched.values()) {
      if (!w.runner().hasEnded()) {
        out.add(new Watched(w.facts(), w.problem()));
      }
    }
    out.sort(Comparator.comparingLong(x -> x.process().pid()));
    return out;
  }

  /** Stops every session (each ends at once: nothing of a counters session is worth a drain). */
  @Override
  public synchronized void close() {
    looker.shutdownNow();
    for (Map.Entry<Long, WatchedProcess> e : new ArrayList<>(watched.entrySet())) {
      drop(e.getKey(), e.getValue());
    }
  }
}
