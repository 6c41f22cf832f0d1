package dev.clrscope.ipc.discovery;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the few {@code /proc/PID} facts discovery needs. Every read may fail (the process exits, or
 * belongs to another user), so each returns {@code null} or a default rather than throwing.
 */
final class ProcFs {
  private final Path proc;

  ProcFs(Path proc) {
    this.proc = proc;
  }

  Path dir(long pid) {
    return proc.resolve(Long.toString(pid));
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
        if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
          pids.add(Long.parseLong(name));
        }
      }
    } catch (IOException e) {
      // No /proc: nothing to list.
    }
    return pids;
  }

  private String readText(long pid, String file) {
    try {
      return new String(Files.readAllBytes(dir(pid).resolve(file)), StandardCharsets.UTF_8);
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
    for (String line : status.split("\n", -1)) {
      if (line.startsWith(key + ":")) {
        return line.substring(key.length() + 1).strip();
      }
    }
    return null;
  }

  /** The short process name (comm), or {@code null}. */
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
    String[] parts = nspid.split("\\s+", -1);
    try {
      return Long.parseLong(parts[parts.length - 1]);
    } catch (NumberFormatException e) {
      return pid;
    }
  }

  /** The process's command line with spaces between arguments, or {@code null}. */
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
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      return null;
    }
    String[] rest = stat.substring(close + 1).strip().split("\\s+", -1);
    // rest[0] is field 3 (state), so field 22 is rest[19].
    return rest.length > 19 ? rest[19] : null;
  }

  /**
   * Where the process's files are seen from here: {@code /proc/PID/root} when it lives in another
   * mount namespace (a container), else the empty path (our own root).
   */
  String rootPrefix(long pid) {
    try {
      Path self = Files.readSymbolicLink(proc.resolve("self/ns/mnt"));
      Path theirs = Files.readSymbolicLink(dir(pid).resolve("ns/mnt"));
      if (!self.equals(theirs)) {
        return dir(pid).resolve("root").toString();
      }
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      // Unreadable namespace links: assume the same mount namespace.
    }
    return "";
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
