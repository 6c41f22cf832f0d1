package dev.clrscope.cli.dacprocess;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The command that starts a DAC process: this JVM's {@code java}, the options it was started with
 * (the launcher's: its AppCDS archive, collector, compiler, {@code CLRSCOPE_JAVA_OPTS}), its class
 * path, {@link DacHost} as the main class, and the options that keep a crash of it out of the
 * user's way: the JVM's report to stderr (a pipe the front reads), no file in the working
 * directory, no core dump; through {@code sh} for {@code ulimit -c 0} (a native abort is no JVM
 * crash) and {@code setsid} (a session of its own: the terminal's Ctrl+C reaches the front alone).
 */
final class DacCommandLine {
  private DacCommandLine() {}

  /** What the DAC process's JVM is told beyond what the front's was. */
  static final List<String> OWN_OPTIONS =
      List.of(
          // A crash report goes to stderr, which the front reads: never hs_err_pid*.log in the
          // user's directory. (Java 17 writes the report's head to fd 1, the frames' stream,
          // whatever it is told: the front takes frames that break off for that.)
          "-XX:+ErrorFileToStderr",
          "-XX:+DisplayVMOutputToStderr",
          "-XX:-CreateCoredumpOnCrash",
          // A crash of a compiler thread writes a replay file, in the working directory by default.
          "-XX:ReplayDataFile=/dev/null",
          // Unified logging's warnings go to stdout unless told otherwise.
          "-Xlog:disable",
          "-Xlog:all=warning:stderr");

  /**
   * The front's options the DAC process must not repeat: they write files or hold ports. Logging
   * options too: the DAC process has its own ({@link #OWN_OPTIONS}), and a log file named twice
   * would be written by both.
   */
  private static final List<String> LEFT_OUT =
      List.of(
          "-Xlog",
          "-verbose",
          "-XX:ArchiveClassesAtExit",
          "-XX:DumpLoadedClassList",
          "-XX:+RecordDynamicDumpInfo",
          "-Xshare:dump",
          "-XX:ErrorFile",
          "-XX:StartFlightRecording",
          "-agentlib:jdwp",
          "-Xrunjdwp",
          "-Xdebug");

  /** Launcher options whose value is the next word. */
  private static final Set<String> TAKE_A_WORD =
      Set.of(
          "-p",
          "--module-path",
          "--upgrade-module-path",
          "--add-modules",
          "--limit-modules",
          "--add-exports",
          "--add-opens",
          "--add-reads",
          "--patch-module",
          "--enable-native-access");

  private static final String SHELL =
      "ulimit -c 0 2>/dev/null; if command -v setsid >/dev/null 2>&1; then exec setsid \"$@\"; fi;"
          + " exec \"$@\"";

  /** The whole command. */
  static List<String> command() {
    List<String> c = new ArrayList<>();
    if (Files.isExecutable(Path.of("/bin/sh"))) {
      c.addAll(List.of("/bin/sh", "-c", SHELL, "clrscope-dac"));
    }
    c.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    JvmWords self = ownWords();
    c.addAll(self.options());
    c.addAll(OWN_OPTIONS);
    c.add("-cp");
    c.add(self.classPath());
    c.add(DacHost.MAIN);
    return c;
  }

  /** The options this JVM was started with and its class path. */
  record JvmWords(List<String> options, String classPath) {}

  /** This JVM's options and class path, from {@code /proc/self/cmdline} where it is. */
  static JvmWords ownWords() {
    String classPath = System.getProperty("java.class.path");
    try {
      byte[] raw = Files.readAllBytes(Path.of("/proc/self/cmdline"));
      return of(split(raw), classPath);
    } catch (IOException | RuntimeException e) {
      return new JvmWords(List.of(), classPath);
    }
  }

  private static List<String> split(byte[] raw) {
    List<String> words = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < raw.length; i++) {
      if (raw[i] == 0) {
        words.add(new String(raw, start, i - start, StandardCharsets.UTF_8));
        start = i + 1;
      }
    }
    if (start < raw.length) {
      words.add(new String(raw, start, raw.length - start, StandardCharsets.UTF_8));
    }
    return words;
  }

  /**
   * The options among a {@code java} command's words (the first is the executable) and its class
   * path: up to {@code -jar JAR} or the main class.
   *
   * @param fallback the class path when the words give none
   */
  static JvmWords of(List<String> words, String fallback) {
    List<String> options = new ArrayList<>();
    String classPath = fallback;
    for (int i = 1; i < words.size(); i++) {
      String w = words.get(i);
      if (w.equals("-jar")) {
        if (i + 1 < words.size()) {
          classPath = words.get(i + 1);
        }
        break;
      }
      if (w.equals("-cp") || w.equals("-classpath") || w.equals("--class-path")) {
        if (i + 1 < words.size()) {
          classPath = words.get(++i);
        }
        continue;
      }
      if (w.startsWith("--class-path=")) {
        classPath = w.substring("--class-path=".length());
        continue;
      }
      if (!w.startsWith("-") || w.equals("-m") || w.equals("--module")) {
        break;
      }
      boolean takesWord = TAKE_A_WORD.contains(w) && i + 1 < words.size();
      if (LEFT_OUT.stream().noneMatch(w::startsWith)) {
        options.add(w);
        if (takesWord) {
          options.add(words.get(i + 1));
        }
      }
      if (takesWord) {
        i++;
      }
    }
    return new JvmWords(options, classPath);
  }
}
