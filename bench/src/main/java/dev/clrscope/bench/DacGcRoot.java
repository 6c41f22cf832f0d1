package dev.clrscope.bench;

import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.DacSession;
import dev.clrscope.dac.RootPath;
import java.nio.file.Path;

/**
 * {@code gcroot ADDRESS} through the analyze model, for timing beside dotnet-dump's until the
 * {@code analyze} command exists: {@code DacGcRoot CORE ADDRESS} (hex) prints each root that keeps
 * the object alive and its path.
 */
public final class DacGcRoot {
  private DacGcRoot() {}

  public static void main(String[] args) {
    try (DacSession p =
        DacSession.openCore(Path.of(args[0]), DacOptions.defaults().withSymbolServer(null))) {
      for (RootPath path : p.heap().rootPaths(Long.parseUnsignedLong(args[1], 16), 100, false)) {
        System.out.println(path.root().describe());
        for (long o : path.objects()) {
          System.out.println(
              "    -> " + Long.toHexString(o) + " " + p.heap().object(o).type().name());
        }
      }
    }
  }
}
