package dev.clrscope.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The reference tools the end-to-end tests compare clrscope with (dotnet-dump, dotnet-stack),
 * version 10.0.750501, installed from the NuGet feed into {@code src/test/target/tools} on first
 * use ({@code dotnet tool install --tool-path}). A tool that cannot be installed fails the test.
 */
final class DotnetTools {
  static final String VERSION = "10.0.750501";

  private DotnetTools() {}

  /** The tool's executable, installed if missing. */
  static synchronized Path executable(String tool) {
    Path dir = Clrscope.root().resolve(Path.of("src", "test", "target", "tools"));
    Path exe = dir.resolve(tool);
    if (Files.isExecutable(exe)) {
      return exe;
    }
    String output =
        run(
            List.of(
                DotnetApps.dotnet().toString(),
                "tool",
                "install",
                "--tool-path",
                dir.toString(),
                tool,
                "--version",
                VERSION),
            600);
    if (!Files.isExecutable(exe)) {
      throw new AssertionError("could not install " + tool + " " + VERSION + ": " + output);
    }
    return exe;
  }

  /** Runs a command to its end (at most {@code timeoutSeconds}): its stdout and stderr. */
  static String run(List<String> command, int timeoutSeconds) {
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
