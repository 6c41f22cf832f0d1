package dev.clrscope.cli.commands.serve;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.commands.counters.CounterOptions;
import dev.clrscope.cli.options.Numbers;
import dev.clrscope.cli.options.OptionDefaults;
import dev.clrscope.cli.options.ProcessSelectionOptions;
import dev.clrscope.cli.output.IoErrors;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.session.StopSignals;
import dev.clrscope.ipc.discovery.EndpointLocator;
import dev.clrscope.ipc.launch.RunDirectory;
import dev.clrscope.monitor.counters.CounterRequest;
import dev.clrscope.monitor.session.StopSwitch;
import dev.clrscope.serve.ArtifactCollector;
import dev.clrscope.serve.CollectionRule;
import dev.clrscope.serve.FleetWatcher;
import dev.clrscope.serve.MetricsServer;
import dev.clrscope.serve.ProcessSelection;
import dev.clrscope.serve.RuleEngine;
import dev.clrscope.serve.RulesFile;
import dev.clrscope.serve.TokenFile;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code clrscope serve}: one clrscope per host or pod. Every .NET process of the host is watched
 * (the counters of {@code --counters}, one session each) and exposed to Prometheus on {@code GET
 * /metrics}; {@code GET /processes} lists them. Runs until Ctrl+C, SIGTERM or {@code --duration}.
 */
@Command(
    name = "serve",
    sortOptions = false,
    description = {
      "Watch every .NET process of this host (or those -p/-n select) and serve their counters"
          + " to Prometheus:"
          + " GET /metrics (the text exposition format, every series labelled with pid, name and"
          + " runtime_version) and GET /processes (JSON). Processes that start are picked up,"
          + " those that exit are dropped with their series. Loopback only unless --token-file"
          + " is given; runs until Ctrl+C, SIGTERM or --duration."
    })
public final class ServeCommand extends ClrscopeSubcommand implements OptionDefaults.Own {
  /** A fleet's refresh interval: Prometheus scrapes every 15 s or so. */
  @Override
  public String defaultFor(String option) {
    return option.equals("--refresh-interval") ? "5" : null;
  }

  @Option(
      names = "--listen",
      paramLabel = "HOST:PORT",
      defaultValue = "127.0.0.1:9464",
      description =
          "Where to listen (default: ${DEFAULT-VALUE}; port 0 for any free port, printed at"
              + " start). Any address but loopback needs --token-file.")
  String listen;

  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description =
          "A file holding the bearer token every request must carry (Authorization: Bearer"
              + " TOKEN); it should be readable by its owner only.")
  Path tokenFile;

  @Option(
      names = "--discovery-interval",
      paramLabel = "SECONDS",
      defaultValue = "5",
      description =
          "How often the host's .NET processes are listed, to pick up new ones (default:"
              + " ${DEFAULT-VALUE}).")
  double discoverySeconds;

  @Option(
      names = "--artifacts",
      paramLabel = "DIR",
      description =
          "Where POST /gcdump, /trace and /dump and the rules write (made 0700 if new; an"
              + " existing one must be open to its owner only; files 0600);"
              + " given, a .gcdump or trace is kept there after it is sent. Default: a fresh"
              + " directory under the system's temporary one, holding dumps only.")
  Path artifactDir;

  @Option(
      names = "--rules",
      paramLabel = "FILE",
      description =
          "Collection rules (JSON; see docs/serve.md): when a counter of a process stays above a"
              + " threshold for a while, collect a trace, gcdump or dump, at most once per"
              + " cool-down. GET /rules shows them and their firings.")
  Path rulesFile;

  @Option(
      names = "--no-triage",
      description =
          "Do not triage the core dumps rules write (by default each is, by `clrscope triage` in a"
              + " process of its own: its report beside the dump, its findings in GET /rules).")
  boolean noTriage;

  @Mixin ProcessSelectionOptions targets;

  @Mixin CounterOptions counters;

  @Override
  protected Result run() {
    try {
      return serve();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new dev.clrscope.cli.CommandFailure("interrupted", e);
    }
  }

  private Result serve() throws IOException, InterruptedException {
    counters.validate();
    ProcessSelection selection = targets.selection();
    if (!(discoverySeconds >= 0.1) || discoverySeconds > 3600) {
      throw new ParameterException(
          spec.commandLine(),
          "--discovery-interval takes seconds from 0.1 to 3600, got "
              + Numbers.plain(discoverySeconds));
    }
    InetSocketAddress address = address(listen);
    String token = token();
    if (token == null && !address.getAddress().isLoopbackAddress()) {
      throw new ParameterException(
          spec.commandLine(),
          "--listen "
              + listen
              + " is not a loopback address: anyone who can reach it could read this host's"
              + " processes; give --token-file FILE (a bearer token), or listen on 127.0.0.1");
    }
    List<CollectionRule> rules = rules();
    FleetWatcher.Request request =
        new FleetWatcher.Request(
            withRuleCounters(counters.requests(), rules),
            counters.refreshSeconds(),
            counters.maxHistograms(),
            counters.maxTimeSeries(),
            Duration.ofMillis((long) (discoverySeconds * 1000)),
            selection);
    if (artifactDir != null && artifactDir.toString().isBlank()) {
      throw new ParameterException(spec.commandLine(), "--artifacts takes a directory, got none");
    }
    boolean keep = artifactDir != null;
    Path dir = keep ? artifactDir : defaultArtifactDir();
    StopSwitch stop = new StopSwitch();
    try (FleetWatcher watcher = new FleetWatcher(new EndpointLocator(), request);
        ArtifactCollector collector = collector(dir, selection);
        RuleEngine engine =
            new RuleEngine(
                rules,
                collector,
                into -> collector(into, selection),
                line -> say("clrscope serve: " + line),
                Duration.ofMillis(Math.round(counters.refreshSeconds() * 1000)),
                noTriage ? null : new ChildTriage());
        MetricsServer server =
            bind(address, watcher, token, collector, keep, rules.isEmpty() ? null : engine);
        StopSignals signals = StopSignals.install(stop, false, signal -> {})) {
      if (!rules.isEmpty()) {
        watcher.listen(engine);
      }
      watcher.start();
      server.start();
      InetSocketAddress bound = server.address();
      err()
          .printf(
              "Serving http://%s:%d/metrics and /processes%s; watching %d .NET processes%s."
                  + " Ctrl+C or SIGTERM stops.%n",
              host(bound),
              bound.getPort(),
              token == null ? "" : " (bearer token required)",
              watcher.processes().size(),
              selection.isAll() ? "" : " (only " + selection.describe() + ")");
      err()
          .println(
              (token == null
                      ? "Artifact endpoints off (they need --token-file)"
                      : "POST /gcdump, /trace, /dump write into " + collector.directory())
                  + (rules.isEmpty() ? "" : "; " + rules.size() + " collection rule(s), GET /rules")
                  + ".");
      err().flush();
      stop.stopAfter(counters.duration());
      while (!stop.awaitStop(Duration.ofSeconds(1))) {
        // The watcher and the server work on their own threads.
      }
      // Artifacts in flight first, while the server can still send them: a trace ends early but
      // whole, a heap walk is abandoned, unfinished files are removed.
      engine.close();
      collector.close();
      err().println("Stopping (" + stop.reason() + "): sessions closed.");
    } finally {
      removeIfEmpty(keep ? null : dir);
    }
    return Result.done();
  }

  private synchronized void say(String line) {
    err().println(line);
    err().flush();
  }

  /** The rules of {@code --rules}, or none; an unusable file is a usage error. */
  private List<CollectionRule> rules() {
    if (rulesFile == null) {
      return List.of();
    }
    try {
      return RulesFile.read(rulesFile);
    } catch (RulesFile.Invalid e) {
      throw new ParameterException(spec.commandLine(), "--rules " + e.getMessage());
    }
  }

  /** The {@code --counters} requests with what the rules need. */
  private List<CounterRequest> withRuleCounters(
      List<CounterRequest> requests, List<CollectionRule> rules) {
    try {
      return RuleEngine.counters(requests, rules);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          spec.commandLine(), "--rules " + rulesFile + ": " + e.getMessage());
    }
  }

  private ArtifactCollector collector(Path dir, ProcessSelection selection) {
    try {
      return new ArtifactCollector(
          new EndpointLocator(), selection, dir, line -> say("clrscope serve: " + line));
    } catch (IOException e) {
      // Our own refusal (open to others) says it all; the file system's, its reason.
      String why = e.getClass() == IOException.class ? e.getMessage() : IoErrors.reason(e);
      throw new CommandFailure("cannot use the artifact directory " + dir + ": " + why);
    } catch (UnsupportedOperationException e) {
      throw new CommandFailure(
          "cannot use the artifact directory "
              + dir
              + ": its file system has no POSIX permissions (needed for 0700/0600)");
    }
  }

  /** A fresh 0700 directory under the system's temporary one. */
  private static Path defaultArtifactDir() {
    try {
      // Named for this run, so that the next one removes it if this one is killed.
      return RunDirectory.create(
          Path.of(System.getProperty("java.io.tmpdir")), RunDirectory.Kind.SERVE);
    } catch (IOException e) {
      throw new CommandFailure(
          "cannot make an artifact directory under "
              + System.getProperty("java.io.tmpdir")
              + ": "
              + e.getMessage()
              + "; give --artifacts DIR");
    }
  }

  private static void removeIfEmpty(Path dir) {
    if (dir == null) {
      return;
    }
    try {
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // It holds dumps: they stay, where /dump said they are.
    }
  }

  private MetricsServer bind(
      InetSocketAddress address,
      FleetWatcher watcher,
      String token,
      ArtifactCollector collector,
      boolean keep,
      RuleEngine engine) {
    try {
      return new MetricsServer(address, watcher, token, collector, keep, engine);
    } catch (IOException e) {
      throw new CommandFailure(
          "cannot listen on "
              + listen
              + ": "
              + e.getMessage()
              + "; choose another --listen (port 0 takes any free port)");
    }
  }

  private static String host(InetSocketAddress a) {
    String h = a.getAddress().getHostAddress();
    return h.contains(":") ? "[" + h + "]" : h;
  }

  /** {@code HOST:PORT}, {@code [V6]:PORT} or {@code :PORT} (every address). */
  private InetSocketAddress address(String text) {
    int colon = text.lastIndexOf(':');
    if (colon < 0) {
      throw new ParameterException(
          spec.commandLine(), "--listen takes HOST:PORT (like 127.0.0.1:9464), got " + text);
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (port < 0 || port > 65535) {
      throw new ParameterException(
          spec.commandLine(), "--listen: the port must be from 0 to 65535, got " + text);
    }
    try {
      return new InetSocketAddress(
          host.isEmpty() ? InetAddress.getByName("0.0.0.0") : InetAddress.getByName(host), port);
    } catch (UnknownHostException e) {
      throw new ParameterException(spec.commandLine(), "--listen: unknown host " + host);
    }
  }

  private String token() {
    if (tokenFile == null) {
      return null;
    }
    try {
      return TokenFile.read(tokenFile);
    } catch (TokenFile.Unusable e) {
      throw new CommandFailure(e.getMessage());
    }
  }
}
