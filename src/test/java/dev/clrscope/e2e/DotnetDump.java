package dev.clrscope.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real dotnet-dump 10.0.750501, the reference the analyze model is compared with: installed
 * from the NuGet feed into {@code src/test/target/tools} on first use ({@code dotnet tool install
 * --tool-path}). A tool that cannot be installed fails the test.
 */
final class DotnetDump {
  static final String VERSION = "10.0.750501";

  private DotnetDump() {}

  /** The dotnet-dump executable, installed if missing. */
  static synchronized Path executable() {
    Path dir = Clrscope.root().resolve(Path.of("src", "test", "target", "tools"));
    Path exe = dir.resolve("dotnet-dump");
    if (Files.isExecutable(exe)) {
      return exe;
    }
    List<String> command =
        List.of(
            DotnetApps.dotnet().toString(),
            "tool",
            "install",
            "--tool-path",
            dir.toString(),
            "dotnet-dump",
            "--version",
            VERSION);
    String output = run(command, 600);
    if (!Files.isExecutable(exe)) {
      throw new AssertionError("could not install dotnet-dump " + VERSION + ": " + output);
    }
    return exe;
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
    ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
    b.environment().put("DOTNET_CLI_TELEMETRY_OPTOUT", "1");
    b.environment().put("DOTNET_NOLOGO", "1");
    try {
      Process p = b.start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(command + " did not end within " + timeoutSeconds + " s");
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
