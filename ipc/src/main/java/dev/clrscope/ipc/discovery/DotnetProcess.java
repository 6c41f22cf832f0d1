package dev.clrscope.ipc.discovery;

import dev.clrscope.ipc.transport.IpcEndpoint;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * A process that has a diagnostic endpoint.
 *
 * @param pid the pid as seen from here (the host)
 * @param runtimePid the pid the runtime knows itself by (differs inside a container)
 * @param name the short process name, or {@code null} if unreadable
 * @param commandLine the command line from the OS, or {@code null} if unreadable
 * @param endpoint where its diagnostic server listens
 */
public record DotnetProcess(
    long pid, long runtimePid, String name, String commandLine, IpcEndpoint endpoint) {

  /**
   * The names a user may know this process by: the OS process name, the executable's file name,
   * and, for {@code dotnet app.dll}, the app's name. Kernel process names are cut at 15 characters,
   * so the longer names come from the command line.
   */
  public Set<String> knownNames() {
    Set<String> names = new LinkedHashSet<>();
    if (name != null && !name.isEmpty()) {
      names.add(name);
    }
    if (commandLine != null && !commandLine.isBlank()) {
      String[] args = commandLine.strip().split(" ", -1);
      String exe = baseName(args[0]);
      names.add(exe);
      String exeLower = exe.toLowerCase(Locale.ROOT);
      if ((exeLower.equals("dotnet") || exeLower.equals("dotnet.exe")) && args.length > 1) {
        for (int i = 1; i < args.length; i++) {
          if (args[i].toLowerCase(Locale.ROOT).endsWith(".dll")) {
            String dll = baseName(args[i]);
            names.add(dll.substring(0, dll.length() - 4));
            break;
          }
        }
      }
      if (exeLower.endsWith(".exe")) {
        names.add(exe.substring(0, exe.length() - 4));
      }
    }
    return names;
  }

  /** Whether {@code query} is one of {@link #knownNames()}, ignoring case. */
  public boolean isNamed(String query) {
    return knownNames().stream().anyMatch(n -> n.equalsIgnoreCase(query));
  }

  private static String baseName(String path) {
    int slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
    return path.substring(slash + 1);
  }
}
