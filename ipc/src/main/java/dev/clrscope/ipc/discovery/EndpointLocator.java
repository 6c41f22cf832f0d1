package dev.clrscope.ipc.discovery;

import dev.clrscope.ipc.TargetNotFoundException;
import dev.clrscope.ipc.transport.IpcEndpoint;
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
    DotnetProcess found = find(pid, new HashMap<>());
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

  /** Every process on this machine with a live diagnostic endpoint, in pid order. */
  /**
   * One variable of a process's initial environment ({@code /proc/PID/environ}, readable for this
   * user's processes), or {@code null} if unset or unreadable.
   */
  public String environmentVariable(long pid, String name) {
    return proc.environmentVariable(pid, name);
  }

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
    long self = ProcessHandle.current().pid();
    Map<String, Map<Long, List<Path>>> listings = new HashMap<>();
    List<Long> pids = proc.pids();
    for (long pid : pids) {
      if (pid == self) {
        continue;
      }
      try {
        DotnetProcess p = find(pid, listings);
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
    String root = proc.rootPrefix(pid);
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

  private DotnetProcess find(long pid, Map<String, Map<Long, List<Path>>> listings) {
    long nspid = proc.namespacePid(pid);
    List<Path> candidates = new ArrayList<>();
    for (String dir : searchDirs(pid)) {
      candidates.addAll(
          listings
              .computeIfAbsent(dir, EndpointLocator::listSockets)
              .getOrDefault(nspid, List.of()));
    }
    if (candidates.isEmpty()) {
      return null;
    }
    Path chosen = choose(pid, candidates, proc.startTimeTicks(pid));
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
  private static Path choose(long pid, List<Path> candidates, String startTicks) {
    if (candidates.size() == 1) {
      return candidates.get(0);
    }
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
    try (DirectoryStream<Path> entries =
        Files.newDirectoryStream(Path.of(dir), PREFIX + "*" + SUFFIX)) {
      for (Path p : entries) {
        String n = p.getFileName().toString();
        String middle = n.substring(PREFIX.length(), n.length() - SUFFIX.length());
        int dash = middle.indexOf('-');
        if (dash <= 0) {
          continue;
        }
        try {
          byPid
              .computeIfAbsent(Long.parseLong(middle.substring(0, dash)), k -> new ArrayList<>())
              .add(p);
        } catch (NumberFormatException ignored) {
          // Not a runtime's socket.
        }
      }
    } catch (IOException | RuntimeException e) {
      // A missing or unreadable directory holds no sockets we can use.
    }
    return byPid;
  }
}
