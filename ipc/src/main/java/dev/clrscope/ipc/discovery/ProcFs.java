package dev.clrscope.ipc.discovery;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the few {@code /proc/PID} facts discovery needs. Every read may fail (the process exits, or
 * belongs to another user), so each returns {@code null} or a default rather than throwing.
 */
final class ProcFs {
  private final Path proc;

  ProcFs(Path proc) {
    this.proc = proc;
  }

  /** Stands for this process in {@link #namespace}. */
  static final long SELF = -1;

  Path dir(long pid) {
    return proc.resolve(pid == SELF ? "self" : Long.toString(pid));
  }

  /**
   * The identity of one of a process's namespaces ({@code net:[4026531833]}), or {@code null} when
   * the link cannot be read (another user's process, no such namespace).
   */
  String namespace(long pid, String kind) {
    try {
      return Files.readSymbolicLink(dir(pid).resolve("ns").resolve(kind)).toString();
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return null;
    }
  }

  /**
   * The Unix sockets bound in this network namespace whose file name starts with {@code prefix} and
   * goes on with a pid and a dash ({@code dotnet-diagnostic-PID-}), by that pid, or {@code null}
   * when {@code net/unix} cannot be read. The table lists every bound socket of the namespace with
   * its path as bound, in the mount namespace of whoever bound it.
   *
   * <pre>
   * Num       RefCount Protocol Flags    Type St Inode Path
   * 00000000: 00000002 00000000 00010000 0001 01 797222 /tmp/dotnet-diagnostic-8437-2371330-socket
   * </pre>
   */
  Map<Long, List<String>> boundSockets(String prefix) {
    String table = unixSocketTable();
    if (table == null) {
      return null;
    }
    Map<Long, List<String>> byPid = new HashMap<>();
    String marker = "/" + prefix;
    for (int at = table.indexOf(marker); at >= 0; at = table.indexOf(marker, at + 1)) {
      int start = at + marker.length();
      int end = start;
      while (end < table.length() && Character.isDigit(table.charAt(end))) {
        end++;
      }
      if (end == start || end - start > 18 || end >= table.length() || table.charAt(end) != '-') {
        continue;
      }
      // The path is what follows the seventh space of the line: it may hold spaces itself.
      int pathStart = table.lastIndexOf('\n', at) + 1;
      for (int field = 0; field < 7 && pathStart > 0 && pathStart <= at; field++) {
        pathStart = table.indexOf(' ', pathStart) + 1;
      }
      if (pathStart <= 0 || pathStart > at) {
        continue;
      }
      int lineEnd = table.indexOf('\n', end);
      String path = table.substring(pathStart, lineEnd < 0 ? table.length() : lineEnd);
      byPid
          .computeIfAbsent(Long.parseLong(table.substring(start, end)), k -> new ArrayList<>())
          .add(path);
    }
    return byPid;
  }

  /**
   * Whether a Unix socket is bound at {@code path} in this network namespace, or {@code null} when
   * {@code net/unix} cannot be read. Each line of the table ends with its socket's path.
   */
  Boolean isBound(String path) {
    String table = unixSocketTable();
    return table == null ? null : table.contains(" " + path + "\n") || table.endsWith(" " + path);
  }

  /** {@code net/unix}, the table of this network namespace's Unix sockets, or {@code null}. */
  private String unixSocketTable() {
    try (InputStream in = new FileInputStream(proc.resolve("net/unix").toString())) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException | SecurityException e) {
      return null;
    }
  }

  boolean exists(long pid) {
    return Files.isDirectory(dir(pid));
  }

  /** The process ids in /proc. */
  List<Long> pids() {
    List<Long> pids = new ArrayList<>();
    try (var entries = Files.newDirectoryStream(proc)) {
      for (Path p : entries) {
        String name = p.getFileName().toString();
        if (isNumber(name)) {
          pids.add(Long.parseLong(name));
        }
      }
    } catch (IOException e) {
      // No /proc: nothing to list.
    }
    return pids;
  }

  private static boolean isNumber(String s) {
    if (s.isEmpty() || s.length() > 18) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /** This process's pid as {@code /proc/self} names it, else as the JVM knows it. */
  long selfPid() {
    try {
      String self = Files.readSymbolicLink(proc.resolve("self")).toString();
      if (isNumber(self)) {
        return Long.parseLong(self);
      }
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      // A /proc without the link (a test's): ask the JVM.
    }
    return ProcessHandle.current().pid();
  }

  private String readText(long pid, String file) {
    try {
      // A plain stream: a listing reads a few hundred of these small files, mostly while the
      // JVM still interprets, and this is the shortest path to the bytes.
      try (InputStream in = new FileInputStream(dir(pid).resolve(file).toString())) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    } catch (IOException | SecurityException e) {
      return null;
    }
  }

  /** The value of a {@code Key:} line in /proc/PID/status, or {@code null}. */
  String statusField(long pid, String key) {
    String status = readText(pid, "status");
    if (status == null) {
      return null;
    }
    int at = status.startsWith(key + ":") ? 0 : status.indexOf("\n" + key + ":");
    if (at < 0) {
      return null;
    }
    int start = status.indexOf(':', at + 1) + 1;
    int end = status.indexOf('\n', start);
    return status.substring(start, end < 0 ? status.length() : end).strip();
  }

  String name(long pid) {
    return statusField(pid, "Name");
  }

  /**
   * The pid as the process's own (innermost) pid namespace sees it: the last {@code NSpid} value. A
   * runtime names its socket with this pid, so a containerised target's socket carries the
   * container's pid, not the host's.
   */
  long namespacePid(long pid) {
    String nspid = statusField(pid, "NSpid");
    if (nspid == null || nspid.isEmpty()) {
      return pid;
    }
    // The pid in each nested namespace, outermost first: the last is the process's own.
    int last = Math.max(nspid.lastIndexOf(' '), nspid.lastIndexOf('\t')) + 1;
    try {
      return Long.parseLong(nspid.substring(last));
    } catch (NumberFormatException e) {
      return pid;
    }
  }

  String commandLine(long pid) {
    String raw = readText(pid, "cmdline");
    if (raw == null || raw.isEmpty()) {
      return null;
    }
    if (raw.endsWith("\0")) {
      raw = raw.substring(0, raw.length() - 1);
    }
    return raw.replace('\0', ' ');
  }

  /** One variable of the process's initial environment, or {@code null} if unset or unreadable. */
  String environmentVariable(long pid, String name) {
    String env = readText(pid, "environ");
    if (env == null) {
      return null;
    }
    String prefix = name + "=";
    for (String entry : env.split("\0", -1)) {
      if (entry.startsWith(prefix)) {
        return entry.substring(prefix.length());
      }
    }
    return null;
  }

  /** The start time in clock ticks since boot (field 22 of stat): the runtime's socket key. */
  String startTimeTicks(long pid) {
    String stat = readText(pid, "stat");
    if (stat == null) {
      return null;
    }
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'. The
    // fields after it are single-space separated; field 22 is the 20th of them.
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      return null;
    }
    int start = close + 2;
    for (int field = 3; field < 22; field++) {
      int space = stat.indexOf(' ', start);
      if (space < 0) {
        return null;
      }
      start = space + 1;
    }
    int end = start;
    while (end < stat.length() && stat.charAt(end) != ' ' && stat.charAt(end) != '\n') {
      end++;
    }
    return end > start ? stat.substring(start, end) : null;
  }

  String rootPrefix(long pid) {
    String self = namespace(SELF, "mnt");
    String theirs = namespace(pid, "mnt");
    // Unreadable namespace links: assume the same mount namespace.
    return self != null && theirs != null && !self.equals(theirs)
        ? dir(pid).resolve("root").toString()
        : "";
  }

  /** Whether the process has the CoreCLR runtime mapped, or {@code null} if maps is unreadable. */
  Boolean hasCoreClr(long pid) {
    String maps = readText(pid, "maps");
    if (maps == null || maps.isEmpty()) {
      return null;
    }
    return maps.contains("libcoreclr.so");
  }

  /** Whether the process has the Mono runtime mapped, for a clearer "not supported" message. */
  boolean hasMono(long pid) {
    String maps = readText(pid, "maps");
    return maps != null && maps.contains("libmono");
  }
}
