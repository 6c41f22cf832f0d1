package dev.clrscope.symbols;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The test assemblies of {@code resources/.../symbols/pdb} (Lines.cs built by its build.sh: the PDB
 * beside the assembly in portable/, inside it in embedded/) and the lines their markers name.
 */
final class PdbFixtures {
  private PdbFixtures() {}

  /** The MethodDef tokens of Lines.Sample's methods, in source order. */
  static final int ADD = 0x06000001;

  static final int LOOP = 0x06000002;
  static final int THROW = 0x06000003;

  static Path dir() {
    try {
      return Path.of(PdbFixtures.class.getResource("pdb/Lines.cs").toURI()).getParent();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static Path portableDll() {
    return dir().resolve("portable/Lines.dll");
  }

  static Path portablePdb() {
    return dir().resolve("portable/Lines.pdb");
  }

  static Path embeddedDll() {
    return dir().resolve("embedded/Lines.dll");
  }

  /** The line of Lines.cs whose comment is {@code // line: MARKER}, read from the source. */
  static int line(String marker) {
    try {
      List<String> lines = Files.readAllLines(dir().resolve("Lines.cs"));
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).endsWith("// line: " + marker)) {
          return i + 1;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalArgumentException("no marker " + marker);
  }

  static byte[] bytes(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The debug directory of an assembly file. */
  static PeDebugInfo debugInfo(Path dll) throws IOException, PdbFormatException {
    try (FileChannel ch = FileChannel.open(dll, StandardOpenOption.READ)) {
      return PeDebugInfo.read(
          (offset, dst) -> ch.read(java.nio.ByteBuffer.wrap(dst), offset) == dst.length,
          ch.size(),
          false);
    }
  }
}
