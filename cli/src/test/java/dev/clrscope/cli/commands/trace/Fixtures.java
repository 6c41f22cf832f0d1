package dev.clrscope.cli.commands.trace;

import java.nio.file.Files;
import java.nio.file.Path;

/** The shared real traces: found by walking up from the working directory; absent is a failure. */
final class Fixtures {
  private Fixtures() {}

  static Path pyroscope(String name) {
    for (Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        dir != null;
        dir = dir.getParent()) {
      Path candidate = dir.resolve("shared/fixtures/pyroscope").resolve(name);
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError(
        "fixture shared/fixtures/pyroscope/"
            + name
            + " not found above "
            + System.getProperty("user.dir"));
  }
}
