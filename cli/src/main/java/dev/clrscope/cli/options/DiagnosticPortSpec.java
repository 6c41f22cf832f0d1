package dev.clrscope.cli.options;

import java.nio.file.Path;

/**
 * A parsed {@code --diagnostic-port PATH[,listen|connect]}.
 *
 * @param path the socket path
 * @param connect true for {@code connect}: the runtime listens on PATH and clrscope connects; false
 *     for {@code listen} (the default): clrscope listens and the runtime, started with {@code
 *     DOTNET_DiagnosticPorts=PATH}, connects
 */
public record DiagnosticPortSpec(Path path, boolean connect) {

  /**
   * Parses the option's value.
   *
   * @throws IllegalArgumentException with a message that says what is accepted
   */
  public static DiagnosticPortSpec parse(String text) {
    String value = text.strip();
    String[] parts = value.split(",", -1);
    if (parts[0].isBlank()) {
      throw new IllegalArgumentException(
          "--diagnostic-port needs a socket path, as PATH, PATH,listen or PATH,connect");
    }
    boolean connect = false;
    boolean modeSeen = false;
    for (int i = 1; i < parts.length; i++) {
      String tag = parts[i].strip();
      switch (tag) {
        case "listen":
        case "connect":
          if (modeSeen) {
            throw new IllegalArgumentException(
                "--diagnostic-port takes one mode, listen or connect, not both: " + text);
          }
          modeSeen = true;
          connect = tag.equals("connect");
          break;
        case "suspend":
        case "nosuspend":
          // Runtime-side tags: meaningful in DOTNET_DiagnosticPorts, harmless here.
          break;
        default:
          throw new IllegalArgumentException(
              "unknown --diagnostic-port mode '"
                  + tag
                  + "' in '"
                  + text
                  + "': use PATH, PATH,listen or PATH,connect");
      }
    }
    return new DiagnosticPortSpec(Path.of(parts[0].strip()).toAbsolutePath(), connect);
  }
}
