package dev.clrscope.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Files in {@code ../shared/fixtures}: found by walking up from the working directory; absent is a
 * failure, never a skip.
 */
public final class SharedFixtures {
  private SharedFixtures() {}

  /** {@code shared/fixtures/DIR/NAME}. */
  public static Path of(String dir, String name) {
    for (Path d = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        d != null;
        d = d.getParent()) {
      Path candidate = d.resolve("shared/fixtures").resolve(dir).resolve(name);
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError(
        "fixture shared/fixtures/"
            + dir
            + "/"
            + name
            + " not found above "
            + System.getProperty("user.dir"));
  }
}
