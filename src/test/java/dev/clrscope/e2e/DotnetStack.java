package dev.clrscope.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real dotnet-stack 10.0.750501, the reference {@code clrscope stack} is compared with:
 * installed from the NuGet feed into {@code src/test/target/tools} on first use. A tool that cannot
 * be installed fails the test.
 */
final class DotnetStack {
  static final String VERSION = "10.0.750501";

  private DotnetStack() {}

  static synchronized Path executable() {
    Path dir = Clrscope.root().resolve(Path.of("src", "test", "target", "tools"));
    Path exe = dir.resolve("dotnet-stack");
    if (Files.isExecutable(exe)) {
      return exe;
    }
    String out =
        run(
            List.of(
                DotnetApps.dotnet().toString(),
                "tool",
                "install",
                "--tool-path",
                dir.toString(),
                "dotnet-stack",
                "--version",
                VERSION));
    if (!Files.isExecutable(exe)) {
      throw new AssertionError("could not install dotnet-stack " + VERSION + ": " + out);
    }
    return exe;
  }

  /** {@code dotnet-stack report -p PID}: each thread's frames, innermost first. */
  static Map<Long, List<String>> report(long pid) {
    String out = run(List.of(executable().toString(), "report", "-p", Long.toString(pid)));
    Map<Long, List<String>> stacks = new LinkedHashMap<>();
    List<String> current = null;
    for (String line : out.split("\n")) {
      if (line.startsWith("Thread (0x") && line.endsWith("):")) {
        current = new ArrayList<>();
        stacks.put(Long.parseLong(line.substring(10, line.length() - 2), 16), current);
      } else if (current != null && line.startsWith("  ") && !line.isBlank()) {
        current.add(line.strip());
      }
    }
    if (stacks.isEmpty()) {
      throw new AssertionError("dotnet-stack printed no stack: " + out);
    }
    return stacks;
  }

  /**
   * Frames as {@code trace report} names them: without dotnet-stack's {@code Module!} and parameter
   * list.
   */
  static List<String> methods(List<String> frames) {
    List<String> names = new ArrayList<>();
    for (String f : frames) {
      int bang = f.indexOf('!');
      String name = bang < 0 ? f : f.substring(bang + 1);
      int paren = name.indexOf('(');
      names.add(paren < 0 || name.startsWith("[") ? name : name.substring(0, paren));
    }
    return names;
  }

  private static String run(List<String> command) {
    ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
    b.environment().put("DOTNET_CLI_TELEMETRY_OPTOUT", "1");
    b.environment().put("DOTNET_NOLOGO", "1");
    try {
      Process p = b.start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(600, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(command + " did not end within 600 s");
      }
      return new String(out, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError("could not run " + command + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
