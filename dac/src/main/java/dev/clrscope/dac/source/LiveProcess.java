package dev.clrscope.dac.source;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.TargetException.Problem;
import dev.clrscope.dac.interop.LibC;
import dev.clrscope.symbols.ProcessMaps;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A live process paused with ptrace: every thread seized ({@code PTRACE_SEIZE}) and stopped ({@code
 * PTRACE_INTERRUPT}), threads started meanwhile included; registers by {@code PTRACE_GETREGS};
 * memory by large positional reads of {@code /proc/PID/mem}; mappings from {@code /proc/PID/maps}.
 * {@link #close} detaches every thread, re-delivering any signal that arrived while it was stopped,
 * and the process runs on.
 *
 * <p>A ptrace tracer is a thread: every method must be called on the thread that called {@link
 * #attach}. If this JVM dies without detaching (SIGKILL), the kernel detaches its tracees and they
 * run on ({@code exit_ptrace}); see docs/analyze.md.
 */
public final class LiveProcess implements Target {
  private static final int SIGTRAP = 5;
  private static final int PTRACE_EVENT_STOP = 128;
  private static final long STOP_TIMEOUT_NANOS = 5_000_000_000L;

  private final int pid;
  private final Thread tracer;
  private final long pauseStarted;
  // Each stopped thread and the signal to give back when it is let go (0: none).
  private final Map<Integer, Integer> stopped = new LinkedHashMap<>();
  private final List<ThreadRegisters> threads = new ArrayList<>();
  private final List<MappedFile> mappedFiles = new ArrayList<>();
  private volatile FileChannel mem;
  private long pauseEnded;
  private volatile boolean detached;

  private LiveProcess(int pid) {
    this.pid = pid;
    this.tracer = Thread.currentThread();
    this.pauseStarted = System.nanoTime();
  }

  /**
   * Pauses every thread of process {@code pid}.
   *
   * @throws TargetException {@link Problem#PROCESS_GONE}, {@link Problem#PTRACE_REFUSED}
   */
  public static LiveProcess attach(int pid) {
    Path proc = Path.of("/proc/" + pid);
    if (pid <= 0 || !Files.isDirectory(proc)) {
      throw new TargetException(Problem.PROCESS_GONE, "there is no process " + pid);
    }
    if (pid == ProcessHandle.current().pid()) {
      throw new TargetException(Problem.PTRACE_REFUSED, "process " + pid + " is clrscope itself");
    }
    LiveProcess p = new LiveProcess(pid);
    try {
      p.stopAll();
      p.readRegisters();
      p.readMaps();
      p.mem = FileChannel.open(proc.resolve("mem"), StandardOpenOption.READ);
      return p;
    } catch (IOException e) {
      p.close();
      throw new TargetException(
          Problem.PROCESS_GONE, "cannot read process " + pid + ": " + e.getMessage(), e);
    } catch (RuntimeException | Error e) {
      p.close();
      throw e;
    }
  }

  private void checkTracer() {
    if (Thread.currentThread() != tracer) {
      throw new IllegalStateException("ptrace calls must come from the thread that attached");
    }
  }

  private List<Integer> tasks() {
    try (Stream<Path> s = Files.list(Path.of("/proc/" + pid + "/task"))) {
      List<Integer> tids = new ArrayList<>();
      s.forEach(
          t -> {
            try {
              tids.add(Integer.parseInt(t.getFileName().toString()));
            } catch (NumberFormatException e) {
              // Not a thread directory.
            }
          });
      return tids;
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new TargetException(Problem.PROCESS_GONE, "process " + pid + " exited");
    }
  }

  // Seizes and interrupts every thread until a listing of the threads finds no new one: once all
  // are stopped, none can start another.
  private void stopAll() {
    for (int round = 0; round < 1000; round++) {
      List<Integer> fresh = new ArrayList<>();
      for (int tid : tasks()) {
        if (stopped.containsKey(tid) || !seize(tid)) {
          continue;
        }
        fresh.add(tid);
      }
      if (fresh.isEmpty()) {
        if (stopped.isEmpty()) {
          throw new TargetException(Problem.PROCESS_GONE, "process " + pid + " exited");
        }
        return;
      }
      for (int tid : fresh) {
        waitForStop(tid);
      }
    }
    throw new TargetException(
        Problem.PTRACE_REFUSED,
        "process " + pid + " starts threads faster than they can be paused");
  }

  // Seize and interrupt one thread; false when it exited meanwhile.
  private boolean seize(int tid) {
    try {
      LibC.INSTANCE.ptrace(LibC.PTRACE_SEIZE, tid, Pointer.NULL, Pointer.NULL);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == LibC.ESRCH) {
        return false;
      }
      if (e.getErrorCode() == LibC.EPERM && stopped.isEmpty()) {
        throw new TargetException(Problem.PTRACE_REFUSED, PtraceRefusal.explain(pid));
      }
      throw new TargetException(
          Problem.PTRACE_REFUSED,
          "cannot pause thread "
              + tid
              + " of process "
              + pid
              + ": ptrace failed (errno "
              + e.getErrorCode()
              + ")");
    }
    stopped.put(tid, 0);
    try {
      LibC.INSTANCE.ptrace(LibC.PTRACE_INTERRUPT, tid, Pointer.NULL, Pointer.NULL);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == LibC.ESRCH) {
        // Exited between the two calls: the kernel dropped it.
        stopped.remove(tid);
        return false;
      }
      throw new TargetException(
          Problem.PTRACE_REFUSED,
          "cannot stop thread " + tid + " of process " + pid + " (errno " + e.getErrorCode() + ")");
    }
    return true;
  }

  private void waitForStop(int tid) {
    int[] status = new int[1];
    long deadline = System.nanoTime() + STOP_TIMEOUT_NANOS;
    int spins = 0;
    while (true) {
      int r;
      try {
        r = LibC.INSTANCE.waitpid(tid, status, LibC.WALL | LibC.WNOHANG);
      } catch (LastErrorException e) {
        if (e.getErrorCode() == LibC.EINTR) {
          continue;
        }
        if (e.getErrorCode() == LibC.ECHILD) {
          // Gone: nothing to wait for or to detach.
          stopped.remove(tid);
          return;
        }
        throw new TargetException(
            Problem.PTRACE_REFUSED,
            "waitpid on thread " + tid + " failed (errno " + e.getErrorCode() + ")");
      }
      if (r == tid) {
        int s = status[0];
        if ((s & 0xff) == 0x7f) {
          int sig = (s >> 8) & 0xff;
          int event = s >>> 16;
          // A stop for a signal that arrived first: it is given back at detach.
          if (event != PTRACE_EVENT_STOP && sig != SIGTRAP) {
            stopped.put(tid, sig);
          }
          return;
        }
        // Exited or killed.
        stopped.remove(tid);
        return;
      }
      if (++spins < 200) {
        // A thread interrupted a moment ago is usually stopped within microseconds.
        Thread.onSpinWait();
        continue;
      }
      if (inTracingStop(tid)) {
        // Stopped, but the notification went to another thread of this JVM that waits on the
        // process (the JDK's reaper does, for processes it started): /proc says it all the same.
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new TargetException(
            Problem.PTRACE_REFUSED,
            "thread "
                + tid
                + " of process "
                + pid
                + " did not stop within 5 s (in an uninterruptible wait?); try again");
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TargetException(Problem.INTERRUPTED, "interrupted while pausing process " + pid);
      }
    }
  }

  // Field 3 of /proc/PID/task/TID/stat is 't' in a ptrace stop.
  private boolean inTracingStop(int tid) {
    try {
      String stat =
          Files.readString(
              Path.of("/proc/" + pid + "/task/" + tid + "/stat"), StandardCharsets.US_ASCII);
      int close = stat.lastIndexOf(')');
      return close > 0 && close + 2 < stat.length() && stat.charAt(close + 2) == 't';
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private void readRegisters() {
    Memory regs = new Memory(8L * ThreadRegisters.COUNT);
    for (int tid : new ArrayList<>(stopped.keySet())) {
      try {
        LibC.INSTANCE.ptrace(LibC.PTRACE_GETREGS, tid, Pointer.NULL, regs);
      } catch (LastErrorException e) {
        continue;
      }
      threads.add(new ThreadRegisters(tid, regs.getLongArray(0, ThreadRegisters.COUNT)));
    }
    // The main thread (tid == pid) first, as a core lists it.
    threads.sort((a, b) -> Boolean.compare(b.threadId() == pid, a.threadId() == pid));
  }

  private void readMaps() {
    String text = ProcessMaps.snapshot(pid);
    if (text == null) {
      throw new TargetException(Problem.PROCESS_GONE, "cannot read /proc/" + pid + "/maps");
    }
    ProcessMaps.parse(text)
        .forEach(
            (start, end, offset, path) ->
                mappedFiles.add(new MappedFile(start, end, offset, path)));
  }

  @Override
  public int pid() {
    return pid;
  }

  @Override
  public List<MappedFile> mappedFiles() {
    return Collections.unmodifiableList(mappedFiles);
  }

  @Override
  public List<ThreadRegisters> threads() {
    return Collections.unmodifiableList(threads);
  }

  @Override
  public String describe() {
    return "process " + pid;
  }

  /** Reads memory; any thread may (reading /proc/PID/mem is no ptrace call). */
  @Override
  public int read(long address, byte[] dst, int offset, int length) {
    FileChannel mem = this.mem;
    if (mem == null || detached) {
      return 0;
    }
    ByteBuffer buf = ByteBuffer.wrap(dst, offset, length);
    try {
      while (buf.hasRemaining()) {
        int n = mem.read(buf, address + (buf.position() - offset));
        if (n <= 0) {
          break;
        }
      }
    } catch (IOException e) {
      // Unmapped memory: what was read stands.
    }
    return buf.position() - offset;
  }

  /** How long the process has been (or was) paused, in nanoseconds. */
  public long pausedNanos() {
    return (detached ? pauseEnded : System.nanoTime()) - pauseStarted;
  }

  /** Detaches every thread; the process runs on. */
  @Override
  public void close() {
    if (detached) {
      return;
    }
    checkTracer();
    detached = true;
    try {
      if (mem != null) {
        mem.close();
      }
    } catch (IOException e) {
      // Closing a read-only file loses nothing.
    }
    for (Map.Entry<Integer, Integer> e : stopped.entrySet()) {
      try {
        LibC.INSTANCE.ptrace(
            LibC.PTRACE_DETACH, e.getKey(), Pointer.NULL, Pointer.createConstant(e.getValue()));
      } catch (LastErrorException ex) {
        // ESRCH: the thread exited while stopped (killed), nothing to let go.
      }
    }
    pauseEnded = System.nanoTime();
  }

  /**
   * Process {@code pid}'s mappings and memory without pausing it: what does not change while it
   * runs (where its libraries are, their headers) is read before the pause, to keep it short.
   */
  public static Target unpaused(int pid) {
    Path proc = Path.of("/proc/" + pid);
    if (pid <= 0 || !Files.isDirectory(proc)) {
      throw new TargetException(Problem.PROCESS_GONE, "there is no process " + pid);
    }
    String text = ProcessMaps.snapshot(pid);
    FileChannel mem;
    try {
      mem = text == null ? null : FileChannel.open(proc.resolve("mem"), StandardOpenOption.READ);
    } catch (IOException e) {
      mem = null;
    }
    if (mem == null) {
      // Not readable: another user's process, or ptrace forbidden; attach says which.
      return new Unpaused(pid, List.of(), null);
    }
    List<MappedFile> files = new ArrayList<>();
    ProcessMaps.parse(text)
        .forEach((start, end, offset, path) -> files.add(new MappedFile(start, end, offset, path)));
    return new Unpaused(pid, files, mem);
  }

  private static final class Unpaused implements Target {
    private final int pid;
    private final List<MappedFile> files;
    private final FileChannel mem;

    Unpaused(int pid, List<MappedFile> files, FileChannel mem) {
      this.pid = pid;
      this.files = List.copyOf(files);
      this.mem = mem;
    }

    @Override
    public int read(long address, byte[] dst, int offset, int length) {
      if (mem == null) {
        return 0;
      }
      ByteBuffer buf = ByteBuffer.wrap(dst, offset, length);
      try {
        while (buf.hasRemaining()) {
          if (mem.read(buf, address + (buf.position() - offset)) <= 0) {
            break;
          }
        }
      } catch (IOException e) {
        // Unmapped memory: what was read stands.
      }
      return buf.position() - offset;
    }

    @Override
    public int pid() {
      return pid;
    }

    @Override
    public List<MappedFile> mappedFiles() {
      return files;
    }

    @Override
    public List<ThreadRegisters> threads() {
      return List.of();
    }

    @Override
    public String describe() {
      return "process " + pid;
    }

    @Override
    public void close() {
      try {
        if (mem != null) {
          mem.close();
        }
      } catch (IOException e) {
        // Closing a read-only file loses nothing.
      }
    }
  }

  /** Why the kernel refused ptrace, as one actionable line. */
  static final class PtraceRefusal {
    private PtraceRefusal() {}

    static String explain(int pid) {
      String prefix = "cannot pause process " + pid + ": ptrace was refused: ";
      Map<String, String> status = status(pid);
      String tracer = status.get("TracerPid");
      if (tracer != null && !tracer.equals("0")) {
        // TracerPid is the tracing thread: name its process.
        String process = status(Integer.parseInt(tracer)).getOrDefault("Tgid", tracer);
        return prefix
            + "it is already traced by process "
            + process
            + " ("
            + commOf(process)
            + "); detach that debugger first";
      }
      int me = LibC.INSTANCE.geteuid();
      String uid = status.get("Uid");
      String owner = uid == null ? null : uid.split("\\s+", -1)[1];
      if (me != 0 && owner != null && !owner.equals(Integer.toString(me))) {
        return prefix
            + "it runs as user "
            + owner
            + " and clrscope as user "
            + me
            + "; run clrscope as that user or as root";
      }
      String scope = readFirstLine(Path.of("/proc/sys/kernel/yama/ptrace_scope"));
      if (me != 0 && scope != null && !scope.equals("0")) {
        return prefix
            + "kernel.yama.ptrace_scope is "
            + scope
            + "; run clrscope as root, or allow it with 'sysctl kernel.yama.ptrace_scope=0'";
      }
      return prefix
          + "this environment forbids it (a container without CAP_SYS_PTRACE, or a seccomp or"
          + " AppArmor profile); run the container with --cap-add=SYS_PTRACE, or use a core dump"
          + " ('clrscope dump') instead";
    }

    private static Map<String, String> status(int pid) {
      Map<String, String> out = new LinkedHashMap<>();
      try {
        for (String line :
            Files.readAllLines(Path.of("/proc/" + pid + "/status"), StandardCharsets.UTF_8)) {
          int colon = line.indexOf(':');
          if (colon > 0) {
            out.put(line.substring(0, colon), line.substring(colon + 1).strip());
          }
        }
      } catch (IOException | RuntimeException e) {
        // No status: the explanation falls back to the environment.
      }
      return out;
    }

    private static String commOf(String pid) {
      String comm = readFirstLine(Path.of("/proc/" + pid + "/comm"));
      return comm == null ? "unknown" : comm;
    }

    private static String readFirstLine(Path p) {
      try {
        List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
        return lines.isEmpty() ? null : lines.get(0).strip();
      } catch (IOException | RuntimeException e) {
        return null;
      }
    }
  }
}
