package dev.clrscope.cli.commands.trace;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/** Names of the files {@code trace collect} and {@code trace convert} write. */
public final class TraceFileNames {
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss", Locale.ROOT);

  private TraceFileNames() {}

  /**
   * The app's short name: the entry assembly if the runtime reported one, else the first {@code
   * .dll} argument of the command line (for {@code dotnet App.dll}), else the program's file name;
   * without directory or extension, reduced to characters that are safe in a file name.
   *
   * @param entryAssembly the runtime's entry assembly name, or null/blank
   * @param commandLine the launch command or the process's command line split on spaces; may be
   *     empty
   */
  public static String appName(String entryAssembly, List<String> commandLine) {
    String name = null;
    if (entryAssembly != null && !entryAssembly.isBlank()) {
      name = entryAssembly.strip();
    } else {
      for (String arg : commandLine.subList(Math.min(1, commandLine.size()), commandLine.size())) {
        if (arg.toLowerCase(Locale.ROOT).endsWith(".dll")) {
          name = arg;
          break;
        }
      }
      if (name == null && !commandLine.isEmpty()) {
        name = commandLine.get(0);
      }
    }
    if (name == null || name.isBlank()) {
      return "trace";
    }
    Path file = Path.of(name.replace('\\', '/')).getFileName();
    String base = file == null ? name : file.toString();
    String lower = base.toLowerCase(Locale.ROOT);
    if (lower.endsWith(".dll") || lower.endsWith(".exe")) {
      base = base.substring(0, base.length() - 4);
    }
    String safe = base.replaceAll("[^A-Za-z0-9._-]", "_");
    return safe.isEmpty() ? "trace" : safe;
  }

  /** {@code <app>_<yyyyMMdd>_<HHmmss>.nettrace}. */
  public static String defaultTraceName(String app, LocalDateTime now) {
    return app + "_" + now.format(STAMP) + ".nettrace";
  }

  /**
   * The converted file beside a trace: {@code x.nettrace} becomes {@code x.speedscope.json}, {@code
   * x.chromium.json} or {@code x.folded.txt}.
   */
  public static Path convertedName(Path trace, ConversionFormat format) {
    String name = trace.getFileName().toString();
    int dot = name.lastIndexOf('.');
    String base = dot > 0 ? name.substring(0, dot) : name;
    return trace.resolveSibling(base + format.suffix());
  }
}
