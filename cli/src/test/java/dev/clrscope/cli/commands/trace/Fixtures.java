package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.SharedFixtures;
import java.nio.file.Path;

/** The shared real traces. */
final class Fixtures {
  private Fixtures() {}

  static Path pyroscope(String name) {
    return SharedFixtures.of("pyroscope", name);
  }
}
