package dev.clrscope.e2e;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The real dotnet-dump 10.0.750501, the reference the analyze model is compared with: installed
 * from the NuGet feed into {@code src/test/target/tools} on first use ({@code dotnet tool install
 * --tool-path}). A tool that cannot be installed fails the test.
 */
final class DotnetDump {
  static final String VERSION = DotnetTools.VERSION;

  private DotnetDump() {}

  /** The dotnet-dump executable, installed if missing. */
  static Path executable() {
    return DotnetTools.executable("dotnet-dump");
  }

  /** What {@code dotnet-dump analyze CORE -c CMD -c exit} prints. */
  static String analyze(Path core, String command) {
    return run(
        List.of(executable().toString(), "analyze", core.toString(), "-c", command, "-c", "exit"),
        600);
  }

  /** A {@code dumpheap -stat} row. */
  record Row(long methodTable, long count, long totalSize, String name) {}

  /** {@code dumpheap -stat} by method table. */
  static Map<Long, Row> dumpheapStat(Path core) {
    String out = analyze(core, "dumpheap -stat");
    Map<Long, Row> rows = new HashMap<>();
    boolean table = false;
    for (String line : out.split("\n", -1)) {
      String l = line.strip();
      if (l.startsWith("MT ")) {
        table = true;
        continue;
      }
      if (!table || l.startsWith("Total ") || l.isEmpty()) {
        continue;
      }
      String[] f = l.split("\\s+", 4);
      rows.put(
          Long.parseUnsignedLong(f[0], 16),
          new Row(
              Long.parseUnsignedLong(f[0], 16),
              Long.parseLong(f[1].replace(",", "")),
              Long.parseLong(f[2].replace(",", "")),
              f[3]));
    }
    if (rows.isEmpty()) {
      throw new AssertionError("dotnet-dump printed no dumpheap -stat table: " + out);
    }
    return rows;
  }

  private static String run(List<String> command, int timeoutSeconds) {
    return DotnetTools.run(command, timeoutSeconds);
  }
}
