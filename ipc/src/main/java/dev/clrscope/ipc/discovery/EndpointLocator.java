package dev.clrscope.ipc.discovery;

import dev.clrscope.ipc.TargetNotFoundException;
import dev.clrscope.ipc.transport.IpcEndpoint;
import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the diagnostic endpoint of a process, and lists the processes that have one.
 *
 * <p>On Linux a runtime listens on {@code $TMPDIR/dotnet-diagnostic-PID-KEY-socket}, where TMPDIR
 * is the target's own (read from {@code /proc/PID/environ}), PID is its pid in its own namespace
 * ({@code NSpid}) and KEY its start time in clock ticks. A target in another mount namespace is
 * reached through {@code /proc/PID/root}. Where several sockets match (a recycled pid), the one
 * whose key is the process's start time wins, else the newest. On Windows the endpoint is the named
 * pipe {@code dotnet-diagnostic-PID}.
 */
public final class EndpointLocator {
  private static final Logger log = LoggerFactory.getLogger(EndpointLocator.class);

  private static final String PREFIX = "dotnet-diagnostic-";
  private static final String SUFFIX = "-socket";

  private final ProcFs proc;
  private final boolean windows;
  private final String defaultTmp;

  /** A locator for this machine. */
  public EndpointLocator() {
    this(
        Path.of("/proc"),
        System.getProperty("os.name", "").startsWith("Windows"),
        Optional.ofNullable(System.getenv("TMPDIR")).filter(s -> !s.isEmpty()).orElse("/tmp"));
  }

  /**
   * Whether a Unix socket is bound at {@code socket} in this network namespace (a listener may
   * still be there); {@code null} when the system's table of sockets cannot be read.
   */
  public Boolean isBound(Path socket) {
    return proc.isBound(socket.toString());
  }

  /**
   * A locator over another {@code /proc} (for tests).
   *
   * @param procRoot the proc file system
   * @param windows whether endpoints are named pipes
   * @param defaultTmp the temporary directory to search when a target's TMPDIR cannot be read
   */
  public EndpointLocator(Path procRoot, boolean windows, String defaultTmp) {
    this.proc = new ProcFs(procRoot);
    this.windows = windows;
    this.defaultTmp = defaultTmp;
  }

  /** The named pipe a Windows runtime listens on. */
  public static IpcEndpoint.NamedPipe pipeFor(long pid) {
    return new IpcEndpoint.NamedPipe(PREFIX + pid);
  }

  /**
   * The endpoint of one process.
   *
   * @throws TargetNotFoundException with a message that says why and what to check
   */
  public DotnetProcess locate(long pid) {
    if (windows) {
      log.debug("pid {}: the named pipe {}", pid, pipeFor(pid).fullPath());
      return new DotnetProcess(pid, pid, null, null, pipeFor(pid));
    }
    if (!proc.exists(pid)) {
      log.debug("pid {}: no {}", pid, proc.dir(pid));
      throw new TargetNotFoundException(
          "no process with pid " + pid + " is running; `clrscope ps` lists .NET processes");
    }
    // When the table covers the process and shows no socket of its, a file in a directory is a
    // dead runtime's whose pid this process reuses (killed runtimes leave theirs behind): what
    // the process is, not that leftover, is what the message must say.
    List<String> bound = new SocketTable().socketsOf(pid);
    DotnetProcess found =
        bound != null && bound.isEmpty() ? null : find(pid, new HashMap<>(), bound);
    if (found != null) {
      return found;
    }
    String name = proc.name(pid);
    String who = "process " + pid + (name == null ? "" : " (" + name + ")");
    Boolean coreClr = proc.hasCoreClr(pid);
    if (log.isDebugEnabled()) {
      log.debug(
          "pid {}: no diagnostic socket for pid {} in {}; CoreCLR loaded: {}",
          pid,
          proc.namespacePid(pid),
          searchDirs(pid),
          coreClr == null ? "unknown (maps unreadable)" : coreClr);
    }
    if (Boolean.FALSE.equals(coreClr)) {
      if (proc.hasMono(pid)) {
        throw new TargetNotFoundException(
            who + " runs on Mono, which has no diagnostic server clrscope can talk to");
      }
      throw new TargetNotFoundException(
          who
              + " is not a .NET (Core) process: it has no CoreCLR runtime loaded; "
              + "`clrscope ps` lists .NET processes");
    }
    throw new TargetNotFoundException(
        who
            + " has no diagnostic socket in "
            + String.join(" or ", searchDirs(pid))
            + (coreClr == null ? ": is it a .NET process? If so," : ":")
            + " it may have been started with DOTNET_EnableDiagnostics=0, or still be starting");
  }

  /**
   * One variable of a process's initial environment ({@code /proc/PID/environ}, readable for this
   * user's processes), or {@code null} if unset or unreadable.
   */
  public String environmentVariable(long pid, String name) {
    return proc.environmentVariable(pid, name);
  }

  /**
   * Every process on this machine with a live diagnostic endpoint, in pid order.
   *
   * <p>A process in this network namespace whose pid (in its own namespace) names no socket bound
   * there ({@code /proc/net/unix}) is passed over without reading its environment: that keeps the
   * cost of a listing to a few link reads per process, most of which are not .NET. Processes in
   * other network namespaces, and machines where that table cannot be read, are searched in full.
   */
  public List<DotnetProcess> list() {
    List<DotnetProcess> found = new ArrayList<>();
    if (windows) {
      try (DirectoryStream<Path> pipes = Files.newDirectoryStream(Path.of("\\\\.\\pipe\\"))) {
        for (Path p : pipes) {
          String n = p.getFileName().toString();
          if (n.startsWith(PREFIX)) {
            try {
              long pid = Long.parseLong(n.substring(PREFIX.length()));
              found.add(new DotnetProcess(pid, pid, null, null, pipeFor(pid)));
            } catch (NumberFormatException ignored) {
              // Not a runtime's pipe.
            }
          }
        }
      } catch (IOException | RuntimeException e) {
        // Listing pipes is best effort.
        log.debug("listing the named pipes failed: {}", e.toString());
      }
      found.sort(Comparator.comparingLong(DotnetProcess::pid));
      log.debug("listed {} runtime pipes", found.size());
      return found;
    }
    long self = proc.selfPid();
    Map<String, Map<Long, List<Path>>> listings = new HashMap<>();
    List<Long> pids = proc.pids();
    SocketTable table = new SocketTable();
    for (long pid : pids) {
      if (pid == self) {
        continue;
      }
      List<String> boundPaths = table.socketsOf(pid);
      if (boundPaths != null && boundPaths.isEmpty()) {
        continue;
      }
      try {
        DotnetProcess p = find(pid, listings, boundPaths);
        if (p != null) {
          found.add(p);
        }
      } catch (RuntimeException e) {
        // One unreadable or vanishing process never breaks the listing.
        log.debug("pid {}: skipped: {}", pid, e.toString());
      }
    }
    found.sort(Comparator.comparingLong(DotnetProcess::pid));
    log.debug(
        "listed {} .NET processes among {} processes, searching the directories {}",
        found.size(),
        pids.size(),
        listings.keySet());
    return found;
  }

  private List<String> searchDirs(long pid) {
    return searchDirs(pid, proc.rootPrefix(pid));
  }

  /**
   * The runtime sockets bound in this network namespace ({@code /proc/net/unix}), read once per
   * lookup: a bound socket belongs to a live runtime, a file in a directory may be a killed one's.
   */
  private final class SocketTable {
    private final Map<Long, List<String>> bound = proc.boundSockets(PREFIX);
    private final String ourNet = proc.namespace(ProcFs.SELF, "net");
    private final String ourPids = proc.namespace(ProcFs.SELF, "pid");

    /**
     * The paths (as bound, in the process's mount namespace) of the sockets with the process's own
     * pid in their names; empty when the table covers the process and shows none; {@code null} when
     * the table cannot tell (no table, another network namespace).
     */
    List<String> socketsOf(long pid) {
      if (bound == null || ourNet == null) {
        return null;
      }
      String theirNet = proc.namespace(pid, "net");
      // A namespace link we may not read is another user's process, whose environment we may
      // not read either: the table is all we can know of its sockets.
      if (theirNet != null && !theirNet.equals(ourNet)) {
        return null;
      }
      long nspid =
          ourPids != null && ourPids.equals(proc.namespace(pid, "pid"))
              ? pid
              : proc.namespacePid(pid);
      return bound.getOrDefault(nspid, List.of());
    }
  }

  private List<String> searchDirs(long pid, String root) {
    Set<String> dirs = new LinkedHashSet<>();
    String tmp = proc.environmentVariable(pid, "TMPDIR");
    if (tmp != null && !tmp.isEmpty()) {
      dirs.add(root + tmp);
    }
    if (root.isEmpty()) {
      dirs.add(defaultTmp);
    }
    dirs.add(root + "/tmp");
    return new ArrayList<>(dirs);
  }

  /**
   * The process's endpoint, or {@code null}.
   *
   * @param listings the directories' sockets by pid, listed once per run and shared
   * @param boundPaths the paths (as bound, in the process's mount namespace) of the runtime sockets
   *     bound in its network namespace with its pid in their name, when that table covers it: then
   *     no directory is listed (a busy /tmp of thousands of entries takes milliseconds to list)
   */
  private DotnetProcess find(
      long pid, Map<String, Map<Long, List<Path>>> listings, List<String> boundPaths) {
    long nspid = proc.namespacePid(pid);
    String root = proc.rootPrefix(pid);
    List<String> dirs = searchDirs(pid, root);
    List<Path> candidates = new ArrayList<>();
    if (boundPaths != null) {
      for (String dir : dirs) {
        Path in = Path.of(dir);
        for (String bound : boundPaths) {
          Path socket = Path.of(root + bound);
          if (in.equals(socket.getParent())
              && !candidates.contains(socket)
              && Files.exists(socket)) {
            candidates.add(socket);
          }
        }
      }
    }
    if (candidates.isEmpty()) {
      // No table, or its paths are not where this process's runtime would put them (a TMPDIR
      // reached through a symbolic link): list the directories.
      for (String dir : dirs) {
        candidates.addAll(
            listings
                .computeIfAbsent(dir, EndpointLocator::listSockets)
                .getOrDefault(nspid, List.of()));
      }
    }
    if (candidates.isEmpty()) {
      return null;
    }
    Path chosen = candidates.size() == 1 ? candidates.get(0) : choose(pid, candidates);
    if (log.isDebugEnabled()) {
      log.debug(
          "pid {}{}: socket {}",
          pid,
          nspid == pid ? "" : " (pid " + nspid + " in its namespace)",
          chosen);
    }
    return new DotnetProcess(
        pid, nspid, proc.name(pid), proc.commandLine(pid), new IpcEndpoint.UnixSocket(chosen));
  }

  /** The socket whose key is the start time, else the newest by modification time. */
  private Path choose(long pid, List<Path> candidates) {
    String startTicks = proc.startTimeTicks(pid);
    if (startTicks != null) {
      for (Path p : candidates) {
        String n = p.getFileName().toString();
        String key =
            n.substring(
                n.lastIndexOf('-', n.length() - SUFFIX.length() - 1) + 1,
                n.length() - SUFFIX.length());
        if (key.equals(startTicks)) {
          log.debug(
              "pid {}: of the sockets {}, {} has the process's start time {} as its key",
              pid,
              candidates,
              p.getFileName(),
              startTicks);
          return p;
        }
      }
    }
    Path newest =
        candidates.stream().max(Comparator.comparing(EndpointLocator::mtime)).orElseThrow();
    log.debug(
        "pid {}: of the sockets {}, none has the process's start time {} as its key: {} is the"
            + " newest",
        pid,
        candidates,
        startTicks,
        newest.getFileName());
    return newest;
  }

  private static FileTime mtime(Path p) {
    try {
      return Files.getLastModifiedTime(p);
    } catch (IOException e) {
      return FileTime.fromMillis(0);
    }
  }

  /** The runtime sockets in a directory, by the pid in their names. */
  private static Map<Long, List<Path>> listSockets(String dir) {
    Map<Long, List<Path>> byPid = new HashMap<>();
    // Names as strings, filtered by hand: a /tmp where killed runtimes left thousands of sockets
    // lists in a fifth of the time a glob over Path entries takes.
    String[] names = new File(dir).list();
    if (names == null) {
      // A missing or unreadable directory holds no sockets we can use.
      return byPid;
    }
    for (String n : names) {
      if (!n.startsWith(PREFIX)
          || !n.endsWith(SUFFIX)
          || n.length() <= PREFIX.length() + SUFFIX.length()) {
        continue;
      }
      String middle = n.substring(PREFIX.length(), n.length() - SUFFIX.length());
      int dash = middle.indexOf('-');
      if (dash <= 0) {
        continue;
      }
      try {
        byPid
            .computeIfAbsent(Long.parseLong(middle.substring(0, dash)), k -> new ArrayList<>())
            .add(Path.of(dir, n));
      } catch (NumberFormatException ignored) {
        // Not a runtime's socket.
      }
    }
    return byPid;
  }
}
