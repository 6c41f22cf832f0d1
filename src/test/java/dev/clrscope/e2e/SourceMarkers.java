package dev.clrscope.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Lines of the test apps' C# sources by the marker comment at their end ({@code // line: NAME}):
 * the line a frame must show, read from the source, never written into a test.
 */
final class SourceMarkers {
  private SourceMarkers() {}

  /** The source file {@code file} of app {@code app} ({@code src/test/dotnet/APP/FILE}). */
  static Path source(String app, String file) {
    return Clrscope.root().resolve(Path.of("src", "test", "dotnet", app, file));
  }

  /** The 1-based line of {@code src/test/dotnet/APP/FILE} that ends in {@code // line: MARKER}. */
  static int line(String app, String file, String marker) {
    List<String> lines;
    try {
      lines = Files.readAllLines(source(app, file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int found = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).endsWith("// line: " + marker)) {
        if (found >= 0) {
          throw new AssertionError("two lines marked " + marker + " in " + file);
        }
        found = i + 1;
      }
    }
    if (found < 0) {
      throw new AssertionError("no line marked " + marker + " in " + source(app, file));
    }
    return found;
  }
}
