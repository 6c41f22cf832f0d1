package dev.clrscope.ipc.launch;

import dev.clrscope.ipc.discovery.EndpointLocator;
import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A private (0700) directory of one clrscope run under the temporary directory, named for its
 * owner: {@code clrscope-PID-RANDOM} for a launched app's diagnostic port, {@code
 * clrscope-serve-PID-RANDOM} for serve's default artifact directory. A run removes its own on every
 * exit but SIGKILL; what a killed run leaves is removed by the next one that makes such a directory
 * ({@link #sweep}): this user's, whose owner is dead, holding only what a run leaves (the port's
 * socket; unfinished {@code .partial} files). A serve directory that holds a finished artifact (a
 * core dump) stays: it is the user's.
 */
public final class RunDirectory {
  private static final Logger log = LoggerFactory.getLogger(RunDirectory.class);

  /** {@code clrscope-[serve-]PID-RANDOM}: the kind, the owner's pid. */
  private static final Pattern NAME = Pattern.compile("clrscope-(serve-)?(\\d{1,10})-\\d+");

  /** {@code clrscope-RANDOM}: a port directory of a run before names carried the owner. */
  private static final Pattern UNOWNED = Pattern.compile("clrscope-\\d+");

  /**
   * How old a directory of {@link #UNOWNED} name must be before a sweep may take it for a killed
   * run's: a live run binds its socket within milliseconds of making the directory.
   */
  private static final Duration STALE_AFTER = Duration.ofMinutes(1);

  private RunDirectory() {}

  /** Which run a directory is for. */
  public enum Kind {
    /** A launched app's private diagnostic port: a {@code port} socket. */
    PORT(""),
    /** serve's default artifact directory. */
    SERVE("serve-");

    private final String infix;

    Kind(String infix) {
      this.infix = infix;
    }
  }

  /**
   * Sweeps {@code tmp} ({@link #sweep}), then makes a fresh 0700 directory of {@code kind} there,
   * owned by this process.
   */
  public static Path create(Path tmp, Kind kind) throws IOException {
    sweep(tmp, new EndpointLocator());
    return Files.createTempDirectory(
        tmp,
        "clrscope-" + kind.infix + ProcessHandle.current().pid() + "-",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
  }

  /**
   * Removes the directories killed runs left in {@code tmp}: this user's, whose owner is no longer
   * running (its pid is free, or taken by a process started after the directory last changed),
   * holding nothing but what a run leaves. A port directory named before names carried the owner
   * ({@code clrscope-RANDOM}) is taken once it is {@link #STALE_AFTER} old and its socket is one
   * nobody listens on: a socket bound in this network namespace is live and never probed; another
   * is probed without blocking, and only a refused connection makes it stale (a full backlog, or
   * any other answer, is taken for a live listener, which drops the probe as a connection that is
   * not a runtime's).
   *
   * @param sockets tells which sockets are bound
   * @return how many were removed
   */
  public static int sweep(Path tmp, EndpointLocator sockets) {
    Object ownUid;
    try {
      ownUid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException | RuntimeException e) {
      return 0; // No uid to compare owners with: nothing is taken.
    }
    int removed = 0;
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, "clrscope-*")) {
      for (Path dir : dirs) {
        Matcher m = NAME.matcher(dir.getFileName().toString());
        try {
          if (m.matches()
              ? removeIfLeftOver(dir, m.group(1) != null, Long.parseLong(m.group(2)), ownUid)
              : UNOWNED.matcher(dir.getFileName().toString()).matches()
                  && removeIfStalePort(dir, ownUid, sockets)) {
            removed++;
          }
        } catch (IOException | RuntimeException e) {
          // Gone meanwhile (another run swept it), or unreadable: left as it is.
          log.debug("left {}: {}", dir, e.toString());
        }
      }
    } catch (IOException | RuntimeException e) {
      // Leftovers are untidy, not harmful: the run goes on without sweeping.
      log.debug("could not sweep {}: {}", tmp, e.toString());
    }
    return removed;
  }

  private static boolean removeIfLeftOver(Path dir, boolean serve, long owner, Object ownUid)
      throws IOException {
    BasicFileAttributes a =
        Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!a.isDirectory()
        || !ownUid.equals(Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS))
        || ownerRuns(owner, a.lastModifiedTime().toInstant())) {
      return false;
    }
    List<Path> leftovers = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path e : entries) {
        BasicFileAttributes ea =
            Files.readAttributes(e, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        String name = e.getFileName().toString();
        boolean leftover =
            serve
                ? ea.isRegularFile() && name.endsWith(".partial")
                : ea.isOther() && name.equals("port");
        if (!leftover) {
          return false;
        }
        leftovers.add(e);
      }
    }
    for (Path e : leftovers) {
      Files.delete(e);
    }
    Files.delete(dir);
    log.debug("removed {}, left by clrscope run {} that was killed", dir, owner);
    return true;
  }

  private static boolean removeIfStalePort(Path dir, Object ownUid, EndpointLocator sockets)
      throws IOException {
    BasicFileAttributes a =
        Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!a.isDirectory()
        || !ownUid.equals(Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS))
        || a.lastModifiedTime().toInstant().isAfter(Instant.now().minus(STALE_AFTER))) {
      return false;
    }
    Path port = dir.resolve("port");
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path e : entries) {
        if (!e.equals(port)
            || !Files.readAttributes(e, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                .isOther()) {
          return false;
        }
      }
    }
    if (!Files.exists(port, LinkOption.NOFOLLOW_LINKS)
        || Boolean.TRUE.equals(sockets.isBound(port))
        || !refuses(port)) {
      return false;
    }
    Files.delete(port);
    Files.delete(dir);
    log.debug("removed {}, the port of a clrscope run that was killed", dir);
    return true;
  }

  /** Whether a connection to {@code port} is refused (nobody listens), probed without blocking. */
  private static boolean refuses(Path port) {
    try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      probe.configureBlocking(false);
      probe.connect(UnixDomainSocketAddress.of(port));
      return false;
    } catch (ConnectException e) {
      return String.valueOf(e.getMessage()).contains("Connection refused");
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Whether the run with pid {@code owner} may still be running: a process has that pid and started
   * before the directory last changed (a process started later reuses the pid).
   */
  private static boolean ownerRuns(long owner, Instant changed) {
    Optional<ProcessHandle> p = ProcessHandle.of(owner);
    if (p.isEmpty()) {
      return false;
    }
    Optional<Instant> started = p.get().info().startInstant();
    return started.isEmpty() || !started.get().isAfter(changed);
  }
}
