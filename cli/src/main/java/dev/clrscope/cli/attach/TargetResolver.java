package dev.clrscope.cli.attach;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.options.TargetSpec;
import dev.clrscope.ipc.client.DiagnosticsClient;
import dev.clrscope.ipc.client.EndpointConnectionSource;
import dev.clrscope.ipc.discovery.DotnetProcess;
import dev.clrscope.ipc.discovery.EndpointLocator;
import dev.clrscope.ipc.launch.LaunchClock;
import dev.clrscope.ipc.launch.LaunchedTarget;
import dev.clrscope.ipc.reverse.AdvertisedConnection;
import dev.clrscope.ipc.reverse.DiagnosticPortListener;
import dev.clrscope.ipc.reverse.ReverseConnectionSource;
import dev.clrscope.ipc.transport.IpcEndpoint;
import java.io.PrintStream;
import java.util.List;
import java.util.stream.Collectors;

/** Turns a {@link TargetSpec} into an {@link AttachedTarget}. */
public final class TargetResolver {
  private final EndpointLocator locator;
  private final PrintStream progress;

  /**
   * A resolver.
   *
   * @param locator finds endpoints of running processes
   * @param progress where waiting messages go (stderr)
   */
  public TargetResolver(EndpointLocator locator, PrintStream progress) {
    this.locator = locator;
    this.progress = progress;
  }

  /** Attaches to the target the spec names; a launched app shares clrscope's output. */
  public AttachedTarget attach(TargetSpec spec) {
    return attach(spec, true);
  }

  /**
   * Attaches to the target the spec names.
   *
   * @param childIo for a launched app: whether its stdout and stderr go to clrscope's stderr (else
   *     they are discarded)
   */
  public AttachedTarget attach(TargetSpec spec, boolean childIo) {
    if (spec instanceof TargetSpec.ByPid byPid) {
      return running(locator.locate(byPid.pid()), spec);
    }
    if (spec instanceof TargetSpec.ByName byName) {
      return running(findByName(byName.name()), spec);
    }
    if (spec instanceof TargetSpec.ByPort byPort) {
      return viaPort(byPort);
    }
    TargetSpec.Launch launch = (TargetSpec.Launch) spec;
    LaunchedTarget child =
        LaunchedTarget.start(launch.command(), launch.timeout(), launch.timeout(), childIo);
    return new Launched(child, progress);
  }

  /** The one process with this name; several are an error that lists them. */
  public DotnetProcess findByName(String name) {
    List<DotnetProcess> matches =
        locator.list().stream().filter(p -> p.isNamed(name)).collect(Collectors.toList());
    if (matches.isEmpty()) {
      throw new CommandFailure(
          "no .NET process named '" + name + "': `clrscope ps` lists the running ones");
    }
    if (matches.size() > 1) {
      String list =
          matches.stream()
              .map(
                  p ->
                      p.pid() + " (" + (p.commandLine() == null ? p.name() : p.commandLine()) + ")")
              .collect(Collectors.joining("; "));
      throw new CommandFailure(
          matches.size()
              + " .NET processes are named '"
              + name
              + "': "
              + list
              + "; choose one with -p PID");
    }
    return matches.get(0);
  }

  private static AttachedTarget running(DotnetProcess process, TargetSpec spec) {
    DiagnosticsClient client =
        new DiagnosticsClient(new EndpointConnectionSource(process.endpoint()), spec.timeout());
    return new AttachedTarget() {
      @Override
      public DiagnosticsClient client() {
        return client;
      }

      @Override
      public long pid() {
        return process.pid();
      }

      @Override
      public String endpoint() {
        return process.endpoint().describe();
      }

      @Override
      public void release() {}

      @Override
      public int exitCode(int own) {
        return own;
      }

      @Override
      public void close() {}
    };
  }

  private AttachedTarget viaPort(TargetSpec.ByPort spec) {
    if (spec.port().connect()) {
      IpcEndpoint.UnixSocket endpoint = new IpcEndpoint.UnixSocket(spec.port().path());
      DiagnosticsClient client =
          new DiagnosticsClient(new EndpointConnectionSource(endpoint), spec.timeout());
      return new PortTarget(client, null, pidFromSocketName(endpoint), endpoint.describe());
    }
    DiagnosticPortListener listener = DiagnosticPortListener.bind(spec.port().path());
    try {
      progress.println(
          "Waiting up to "
              + spec.timeout().toSeconds()
              + " s for a .NET runtime to connect to "
              + listener.socketPath()
              + " (start it with DOTNET_DiagnosticPorts="
              + listener.socketPath()
              + ")");
      AdvertisedConnection first = listener.accept(spec.timeout());
      DiagnosticsClient client =
          new DiagnosticsClient(new ReverseConnectionSource(listener, first), spec.timeout());
      return new PortTarget(
          client, listener, first.advertisement().pid(), listener.socketPath().toString());
    } catch (RuntimeException e) {
      listener.close();
      throw e;
    }
  }

  /** The pid in a default socket name, {@code dotnet-diagnostic-PID-KEY-socket}, else -1. */
  private static long pidFromSocketName(IpcEndpoint.UnixSocket socket) {
    String n = socket.path().getFileName().toString();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("dotnet-diagnostic-(\\d+)-\\d+-socket").matcher(n);
    return m.matches() ? Long.parseLong(m.group(1)) : -1;
  }

  /** A runtime reached through a diagnostic port: it may be suspended, so it is resumed. */
  private static final class PortTarget implements AttachedTarget {
    private final DiagnosticsClient client;
    private final DiagnosticPortListener listener;
    private final long pid;
    private final String endpoint;
    private boolean released;

    PortTarget(
        DiagnosticsClient client, DiagnosticPortListener listener, long pid, String endpoint) {
      this.client = client;
      this.listener = listener;
      this.pid = pid;
      this.endpoint = endpoint;
    }

    @Override
    public DiagnosticsClient client() {
      return client;
    }

    @Override
    public long pid() {
      return pid;
    }

    @Override
    public String endpoint() {
      return endpoint;
    }

    @Override
    public void release() {
      if (!released) {
        released = true;
        // A port in suspend mode (the runtime's default) holds startup until this arrives;
        // a runtime that is already running acknowledges it and carries on.
        client.resumeRuntime();
      }
    }

    @Override
    public int exitCode(int own) {
      return own;
    }

    @Override
    public void close() {
      if (listener != null) {
        listener.close();
      }
    }
  }

  /** A child launched under clrscope. */
  private static final class Launched implements AttachedTarget {
    private final LaunchedTarget child;
    private final PrintStream progress;
    private volatile String passedOn;
    private volatile boolean endedByClrscope;

    Launched(LaunchedTarget child, PrintStream progress) {
      this.child = child;
      this.progress = progress;
    }

    @Override
    public DiagnosticsClient client() {
      return child.client();
    }

    @Override
    public long pid() {
      return child.process().pid();
    }

    @Override
    public String endpoint() {
      return child.client().source().describe();
    }

    @Override
    public void release() {
      child.resume();
    }

    @Override
    public LaunchClock launchClock() {
      return child.clock();
    }

    @Override
    public void passOn(String signal) {
      hand(signal, "Passing " + signal + " on to the launched app", false);
    }

    @Override
    public void endLaunched(String why) {
      if (passedOn == null) {
        endedByClrscope =
            hand(
                "SIGTERM",
                "Done (" + why + "): ending the launched app as dotnet-trace does",
                true);
      }
    }

    /**
     * Sends {@code signal} to a child that still runs, saying so, and remembers it; {@code once}:
     * not if a signal was already handed on.
     */
    private synchronized boolean hand(String signal, String saying, boolean once) {
      if (!child.process().isAlive() || (once && passedOn != null)) {
        return false;
      }
      passedOn = signal;
      progress.println(
          saying
              + " (pid "
              + pid()
              + "); it has "
              + LaunchedTarget.GRACE.toSeconds()
              + " s to exit.");
      progress.flush();
      child.signal(signal.startsWith("SIG") ? signal.substring(3) : signal);
      return true;
    }

    @Override
    public int exitCode(int own) {
      try {
        if (passedOn == null) {
          release();
          return child.waitForExit();
        }
        LaunchedTarget.Ending end = child.awaitExit(LaunchedTarget.GRACE);
        if (end.killed()) {
          progress.println(
              "clrscope: the launched app did not exit within "
                  + LaunchedTarget.GRACE.toSeconds()
                  + " s of "
                  + passedOn
                  + ": killed it");
        }
        // An app clrscope ended itself, its work done, has no exit code of its own to pass on.
        return endedByClrscope ? own : end.exitCode();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return own;
      }
    }

    @Override
    public void close() {
      child.close();
    }
  }
}
