package dev.clrscope.e2e;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The real dotnet-stack 10.0.750501, the reference {@code clrscope stack} is compared with:
 * installed from the NuGet feed into {@code src/test/target/tools} on first use. A tool that cannot
 * be installed fails the test.
 */
final class DotnetStack {
  private DotnetStack() {}

  static Path executable() {
    return DotnetTools.executable("dotnet-stack");
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
    return DotnetTools.run(command, 600);
  }
}
