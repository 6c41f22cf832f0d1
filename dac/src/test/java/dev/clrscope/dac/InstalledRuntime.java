package dev.clrscope.dac;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The newest Microsoft.NETCore.App that {@code dotnet --list-runtimes} names: its real {@code
 * libcoreclr.so} and DAC, for the tests that check files as the loader would get them.
 */
final class InstalledRuntime {
  private static Path dir;

  private InstalledRuntime() {}

  /** The runtime's directory; fails when dotnet lists none. */
  static synchronized Path dir() throws IOException, InterruptedException {
    if (dir != null) {
      return dir;
    }
    Process p = new ProcessBuilder("dotnet", "--list-runtimes").redirectErrorStream(true).start();
    Path found = null;
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        // Microsoft.NETCore.App 10.0.12 [/usr/share/dotnet/shared/Microsoft.NETCore.App]
        if (line.startsWith("Microsoft.NETCore.App ")) {
          String[] f = line.split(" ", 3);
          found = Path.of(f[2].substring(1, f[2].length() - 1), f[1]);
        }
      }
    }
    p.waitFor();
    assertThat(found).as("dotnet --list-runtimes names a Microsoft.NETCore.App").isNotNull();
    assertThat(Files.isRegularFile(found.resolve("libmscordaccore.so"))).isTrue();
    dir = found;
    return dir;
  }

  static Path coreclr() throws IOException, InterruptedException {
    return dir().resolve("libcoreclr.so");
  }

  static Path dac() throws IOException, InterruptedException {
    return dir().resolve("libmscordaccore.so");
  }
}
