package dev.clrscope.serve;

import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.client.DiagnosticsClient;
import dev.clrscope.ipc.client.DumpRequest;
import dev.clrscope.ipc.client.DumpType;
import dev.clrscope.ipc.client.EndpointConnectionSource;
import dev.clrscope.ipc.discovery.DotnetProcess;
import dev.clrscope.ipc.discovery.EndpointLocator;
import dev.clrscope.monitor.heap.HeapWalk;
import dev.clrscope.monitor.session.SessionRequest;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.session.SessionRunner;
import dev.clrscope.monitor.session.StopSwitch;
import dev.clrscope.monitor.trace.SessionPlan;
import dev.clrscope.monitor.trace.TraceRecording;
import dev.clrscope.symbols.ProcessMaps;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects artifacts of a selected process into the artifact directory (0700, each file 0600), the
 * way the commands do: a .gcdump through {@link HeapWalk} ({@code dump-heap collect}), a trace
 * through {@link SessionPlan} and the {@link SessionRunner} ({@code trace collect}), a core dump
 * written by the runtime ({@code dump}). A file is written under a {@code .partial} name and moved
 * to its own once whole, so the directory never holds half an artifact; {@link #close()} stops the
 * collections in flight (a trace ends early but whole, a heap walk is abandoned) and removes what
 * is left unfinished.
 */
public final class ArtifactCollector implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ArtifactCollector.class);

  /** The longest trace a request may ask for. */
  public static final Duration MAX_TRACE = Duration.ofHours(1);

  /** How long a heap walk may take, as {@code dump-heap}'s default. */
  private static final Duration WALK_LIMIT = Duration.ofSeconds(60);

  /** How long the rundown of a trace may take once it stops. */
  private static final Duration RUNDOWN_LIMIT = Duration.ofSeconds(30);

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  private static final Duration DUMP_TIMEOUT = Duration.ofMinutes(10);

  /** How long {@link #close()} waits for collections in flight. */
  private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(40);

  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss", Locale.ROOT);

  private final EndpointLocator locator;
  private final ProcessSelection selection;
  private final Path dir;
  private final Consumer<String> announce;

  /** At most this many collections at once: each is a session in a live process. */
  private final Semaphore slots = new Semaphore(2);

  /** The collections in flight, each with the way to stop it. */
  private final Map<Thread, Runnable> inFlight = new ConcurrentHashMap<>();

  private volatile boolean closing;

  /**
   * A collector writing into {@code dir}, created 0700 if missing; an existing one must be open to
   * its owner only (it is refused, not changed). Each collection is said on {@code announce} as it
   * starts and ends (serve's stderr).
   *
   * @throws IOException if it cannot be created or restricted
   */
  public ArtifactCollector(
      EndpointLocator locator, ProcessSelection selection, Path dir, Consumer<String> announce)
      throws IOException {
    this.announce = announce;
    this.locator = locator;
    this.selection = selection;
    this.dir = dir.toAbsolutePath().normalize();
    if (Files.isDirectory(this.dir)) {
      // An existing directory is the user's: refused, not changed, when others may use it.
      String open = OwnerOnly.openToOthers(this.dir);
      if (open != null) {
        throw new IOException(
            this.dir
                + " is open to others ("
                + open
                + "); artifacts hold the processes' memory: chmod 700 it, or name a new"
                + " directory");
      }
      int owner = OwnerOnly.uid(this.dir);
      int self = OwnerOnly.self();
      if (owner >= 0 && self >= 0 && owner != self) {
        // Its owner could replace what serve writes there, or read it back.
        throw new IOException(
            this.dir
                + " belongs to uid "
                + owner
                + ", not to serve's user (uid "
                + self
                + "); artifacts hold the processes' memory: name a directory of your own");
      }
    } else {
      Files.createDirectories(
          this.dir,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
  }

  /** Removes {@code a} once sent, with the maps sidecar of a trace. */
  public static void discard(Artifact a) throws IOException {
    Files.deleteIfExists(a.file());
    Files.deleteIfExists(ProcessMaps.sidecarOf(a.file()));
  }

  /** The artifact directory. */
  public Path directory() {
    return dir;
  }

  /** A .gcdump of {@code pid}'s heap, as {@code dump-heap collect} writes it. */
  public Artifact gcdump(long pid) {
    return collect(
        pid,
        CollectionRule.Kind.GCDUMP,
        (process, client, stop, names) -> {
          Path file = names.reserve(".gcdump");
          HeapWalk walk =
              new HeapWalk(
                  HeapWalk.plain(client),
                  new HeapWalk.Listener() {
                    @Override
                    public void note(String line) {
                      log.info("{}", line);
                    }

                    @Override
                    public void warn(String line) {
                      announce.accept("gcdump of process " + pid + ": " + line);
                    }
                  },
                  pid,
                  "process " + pid,
                  HeapWalk.DEFAULT_BUFFER_MB,
                  WALK_LIMIT);
          HeapSnapshot snapshot;
          try {
            snapshot = walk.take();
          } catch (HeapWalk.WalkFailure e) {
            throw new ArtifactProblem(409, e.getMessage());
          }
          return whole(
              file,
              partial -> {
                try (OutputStream out = new BufferedOutputStream(create(partial), 1 << 16)) {
                  HeapWalk.write(snapshot, pid, out);
                }
              },
              "application/octet-stream",
              pid);
        });
  }

  /**
   * A trace of {@code pid} for {@code duration} with the profiles {@code profiles} (comma list; the
   * default ones when blank), as {@code trace collect} records it.
   */
  public Artifact trace(long pid, Duration duration, String profiles) {
    if (duration.isNegative() || duration.isZero() || duration.compareTo(MAX_TRACE) > 0) {
      throw new ArtifactProblem(400, "duration must be from 1 ms to 3600 s, got " + duration);
    }
    SessionPlan plan;
    try {
      plan =
          SessionPlan.build(
              profiles == null || profiles.isBlank() ? List.of() : List.of(profiles),
              null,
              null,
              null,
              null);
    } catch (IllegalArgumentException e) {
      throw new ArtifactProblem(400, "profile: " + e.getMessage());
    }
    return collect(
        pid,
        CollectionRule.Kind.TRACE,
        (process, client, stop, names) -> {
          Path file = names.reserve(".nettrace");
          TraceRecording.Maps maps = new TraceRecording.Maps(pid);
          Artifact trace =
              whole(
                  file,
                  partial -> {
                    SessionResult r;
                    try (OutputStream out = new BufferedOutputStream(create(partial), 1 << 16)) {
                      SessionRequest request =
                          TraceRecording.request(
                              plan,
                              SessionPlan.DEFAULT_BUFFER_MB,
                              false,
                              duration,
                              RUNDOWN_LIMIT,
                              out,
                              "clrscope-serve-trace");
                      try (SessionRunner session = SessionRunner.start(client, request, stop)) {
                        announce.accept(
                            "trace of process "
                                + pid
                                + ": recording for "
                                + DurationText.show(duration)
                                + " into "
                                + file);
                        maps.take();
                        r = session.finish();
                        maps.take();
                      }
                    }
                    if (r.recordingError() != null) {
                      throw r.recordingError();
                    }
                    try {
                      // Cut off (the target exited, the rundown was abandoned): every whole
                      // block is kept, as trace collect keeps it.
                      TraceRecording.complete(partial, r);
                    } catch (TraceRecording.NothingRecorded e) {
                      throw new ArtifactProblem(
                          409, "process " + pid + ": " + e.getMessage() + "; nothing was recorded");
                    }
                  },
                  "application/octet-stream",
                  pid);
          // As trace collect writes it: the process's maps, which name native frames later.
          Path sidecar = maps.writeBeside(file);
          if (sidecar != null) {
            Files.setPosixFilePermissions(sidecar, PosixFilePermissions.fromString("rw-------"));
          }
          return trace;
        });
  }

  /**
   * A core dump of {@code pid} of {@code type}, written by the runtime (through createdump) as the
   * target's user: into the artifact directory when serve runs as that user; else, as root, into a
   * directory of its own that the target's user owns, whose file is then taken back.
   */
  public Artifact dump(long pid, DumpType type) {
    return collect(
        pid,
        CollectionRule.Kind.DUMP,
        (process, client, stop, names) -> {
          Path file = names.reserve("");
          String name = file.getFileName().toString();
          int targetUid = OwnerOnly.uid(Path.of("/proc", Long.toString(pid)));
          int ownUid = OwnerOnly.self();
          Path writeDir = dir;
          if (targetUid >= 0 && ownUid >= 0 && targetUid != ownUid) {
            if (ownUid != 0) {
              throw new ArtifactProblem(
                  409,
                  "process "
                      + pid
                      + " runs as uid "
                      + targetUid
                      + " and serve as uid "
                      + ownUid
                      + ": its runtime writes the dump as its own user and cannot write into"
                      + " serve's 0700 artifact directory; run serve as "
                      + (targetUid == 0 ? "root" : "uid " + targetUid + " or as root"));
            }
            // Beside, not inside, the artifact directory: the target's user could not pass
            // through serve's 0700 directory to reach it.
            writeDir =
                Files.createTempDirectory(
                    Path.of(System.getProperty("java.io.tmpdir")),
                    "clrscope-dump-" + pid + "-",
                    PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
            Files.setAttribute(writeDir, "unix:uid", targetUid);
          }
          Path written = writeDir.resolve(name + ".partial");
          try {
            client.writeDump(
                new DumpRequest(written.toString(), type, false, false, false), DUMP_TIMEOUT);
            if (!Files.isRegularFile(written) || Files.size(written) == 0) {
              throw new ArtifactProblem(
                  409,
                  "the runtime reported the dump of process "
                      + pid
                      + " written, but "
                      + written
                      + " is missing or empty: is the disk full?");
            }
            if (ownUid == 0 && targetUid > 0) {
              Files.setAttribute(written, "unix:uid", 0);
            }
            Files.setPosixFilePermissions(written, PosixFilePermissions.fromString("rw-------"));
            try {
              Files.move(written, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
              // The temporary directory is on another file system: copied, then removed.
              Files.move(written, file);
            }
            return new Artifact(file, name, "application/octet-stream", Files.size(file), pid);
          } catch (DiagnosticsException e) {
            if (String.valueOf(e.getMessage()).contains("No space left on device")) {
              throw noSpace(writeDir);
            }
            boolean cannotCreate = String.valueOf(e.getMessage()).contains("Could not create");
            throw new ArtifactProblem(
                409,
                "the runtime of process "
                    + pid
                    + " could not write the dump ("
                    + e.getMessage().replace('\n', ' ')
                    + (cannotCreate
                        ? "); the target's user (uid "
                            + targetUid
                            + ") cannot write into "
                            + writeDir
                            + ": a target in another container sees another file system"
                        : "); createdump needs ptrace rights over the target (the same user, or"
                            + " root; SYS_PTRACE in a container)"));
          } finally {
            Files.deleteIfExists(written);
            if (!writeDir.equals(dir)) {
              Files.deleteIfExists(writeDir);
            }
          }
        });
  }

  /**
   * One collection: what it writes, given the process, a client, the switch that stops it and the
   * names it may write under.
   */
  @FunctionalInterface
  private interface Collection {
    Artifact run(DotnetProcess process, DiagnosticsClient client, StopSwitch stop, Names names)
        throws IOException, InterruptedException;
  }

  /**
   * The names every collector of this JVM has given out and not yet let go, so two collections
   * started in the same second (two requests for one pid, a rule and a request, two collectors of
   * one directory) never write one file: a finished artifact is never replaced or lost.
   */
  private static final Set<Path> RESERVED = ConcurrentHashMap.newKeySet();

  /** The names one collection writes under, let go when it ends. */
  private final class Names implements AutoCloseable {
    private final String base;
    private final List<Path> mine = new java.util.ArrayList<>();

    Names(DotnetProcess process, CollectionRule.Kind kind) {
      String stamp = LocalDateTime.now(ZoneOffset.UTC).format(STAMP) + "_" + process.pid();
      this.base = kind == CollectionRule.Kind.DUMP ? "core_" + stamp : stamp;
    }

    /**
     * {@code yyyyMMdd_HHmmss_PID} with {@code extension}, or {@code -2}, {@code -3}... when that
     * name is taken: by a file or its {@code .partial}, or by a collection still running.
     */
    Path reserve(String extension) {
      for (int i = 1; ; i++) {
        Path file = dir.resolve(base + (i == 1 ? "" : "-" + i) + extension);
        if (!Files.exists(file)
            && !Files.exists(file.resolveSibling(file.getFileName() + ".partial"))
            && RESERVED.add(file)) {
          if (Files.exists(file)) {
            RESERVED.remove(file);
            continue;
          }
          mine.add(file);
          return file;
        }
      }
    }

    @Override
    public void close() {
      RESERVED.removeAll(mine);
    }
  }

  /**
   * The kinds being collected of each process: two heap walks of one process at once confuse its
   * runtime (the second names no type), and two core dumps at once gain nothing.
   */
  private final Set<String> busy = ConcurrentHashMap.newKeySet();

  /** A 507 for a file system that is full: how much is free, and what to do. */
  private static ArtifactProblem noSpace(Path where) {
    long free = -1;
    try {
      free = Files.getFileStore(where).getUsableSpace();
    } catch (IOException e) {
      // Said without the figure.
    }
    return new ArtifactProblem(
        507,
        "no space left on the device of "
            + where
            + (free >= 0 ? String.format(Locale.ROOT, " (%,d bytes free)", free) : "")
            + ": free some, or start serve with --artifacts on another file system");
  }

  /** Writes a file's content to the {@code .partial} path it is given. */
  @FunctionalInterface
  private interface Writing {
    void write(Path partial) throws IOException, InterruptedException;
  }

  private Artifact collect(long pid, CollectionRule.Kind kind, Collection collection) {
    String what = kind.name().toLowerCase(Locale.ROOT);
    if (closing) {
      throw new ArtifactProblem(503, "serve is stopping");
    }
    DotnetProcess process = find(pid);
    String own = kind + ":" + pid;
    if (kind != CollectionRule.Kind.TRACE && !busy.add(own)) {
      throw new ArtifactProblem(
          429,
          "a "
              + what
              + " of process "
              + pid
              + " is being collected already; ask again when it is done");
    }
    if (!slots.tryAcquire()) {
      busy.remove(own);
      throw new ArtifactProblem(
          429, "two artifacts are being collected already; ask again when one is done");
    }
    StopSwitch stop = new StopSwitch();
    Thread self = Thread.currentThread();
    inFlight.put(
        self,
        () -> {
          stop.request("serve is stopping");
          if (kind == CollectionRule.Kind.GCDUMP) {
            // A heap walk cut short is worth nothing: it is abandoned at once.
            self.interrupt();
          }
        });
    try (Names names = new Names(process, kind)) {
      DiagnosticsClient client =
          new DiagnosticsClient(new EndpointConnectionSource(process.endpoint()), CONNECT_TIMEOUT);
      announce.accept(what + " of process " + pid + ": collecting");
      Artifact a = collection.run(process, client, stop, names);
      announce.accept(
          what + " of process " + pid + ": wrote " + a.file() + " (" + a.bytes() + " bytes)");
      return a;
    } catch (FileSystemException e) {
      throw failed(
          what,
          pid,
          "No space left on device".equals(e.getReason())
              ? noSpace(dir)
              : new ArtifactProblem(
                  500,
                  "writing the "
                      + what
                      + " into "
                      + dir
                      + " failed: "
                      + (e.getReason() == null
                          ? e.toString()
                          : e.getFile() + ": " + e.getReason())));
    } catch (IOException e) {
      throw failed(
          what,
          pid,
          String.valueOf(e.getMessage()).contains("No space left on device")
              ? noSpace(dir)
              : new ArtifactProblem(
                  500, "writing the " + what + " into " + dir + " failed: " + e.getMessage()));
    } catch (InterruptedException e) {
      throw failed(
          what, pid, new ArtifactProblem(503, "serve is stopping: the " + what + " was abandoned"));
    } catch (DiagnosticsException e) {
      throw failed(
          what,
          pid,
          new ArtifactProblem(
              409, "process " + pid + " refused the " + what + ": " + e.getMessage()));
    } catch (ArtifactProblem e) {
      throw failed(what, pid, e);
    } finally {
      inFlight.remove(self);
      Thread.interrupted();
      slots.release();
      busy.remove(own);
    }
  }

  private ArtifactProblem failed(String what, long pid, ArtifactProblem p) {
    announce.accept(what + " of process " + pid + ": failed: " + p.getMessage());
    return p;
  }

  /** The selected .NET process {@code pid}, or a 404. */
  private DotnetProcess find(long pid) {
    for (DotnetProcess p : locator.list()) {
      if (p.pid() == pid) {
        if (!selection.selects(p)) {
          throw new ArtifactProblem(
              404,
              "process " + pid + " is not one this serve watches (" + selection.describe() + ")");
        }
        return p;
      }
    }
    throw new ArtifactProblem(404, "no .NET process " + pid + " on this host (see /processes)");
  }

  /**
   * Runs {@code writing} into {@code file}'s {@code .partial} twin and moves it to {@code file}
   * once whole; on any failure nothing is left.
   */
  private Artifact whole(Path file, Writing writing, String type, long pid)
      throws IOException, InterruptedException {
    Path partial = file.resolveSibling(file.getFileName() + ".partial");
    boolean done = false;
    try {
      writing.write(partial);
      Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
      done = true;
      return new Artifact(file, file.getFileName().toString(), type, Files.size(file), pid);
    } finally {
      if (!done) {
        Files.deleteIfExists(partial);
      }
    }
  }

  /** A new file, 0600 from the start. */
  private static OutputStream create(Path file) throws IOException {
    try {
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (FileAlreadyExistsException e) {
      throw new IOException(file + " exists already", e);
    }
    return Files.newOutputStream(file);
  }

  /**
   * Stops the collections in flight (a trace is ended early and kept whole; a heap walk is
   * abandoned; a core dump is waited for), waits for them, and removes any {@code .partial} file
   * left.
   */
  @Override
  public void close() {
    closing = true;
    inFlight.values().forEach(Runnable::run);
    long deadline = System.nanoTime() + SHUTDOWN_WAIT.toNanos();
    while (!inFlight.isEmpty() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    try (var files = Files.list(dir)) {
      files
          .filter(f -> f.getFileName().toString().endsWith(".partial"))
          .forEach(
              f -> {
                try {
                  Files.deleteIfExists(f);
                  log.info("removed the unfinished {}", f);
                } catch (IOException e) {
                  log.warn("could not remove the unfinished {}: {}", f, e.getMessage());
                }
              });
    } catch (IOException | UncheckedIOException e) {
      log.warn("could not list {}: {}", dir, e.getMessage());
    }
  }
}
