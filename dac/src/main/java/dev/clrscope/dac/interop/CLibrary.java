package dev.clrscope.dac.interop;

import com.sun.jna.Native;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Loads {@link LibC}: the C library this process already has mapped, by its path, so that JNA
 * searches for nothing. Left to itself, JNA's first library loaded by name works out the platform's
 * search path, and on Linux that runs {@code ldconfig -p} in a process of its own (about 15 ms of
 * every DAC command's start); the DAC itself is always loaded by path.
 */
final class CLibrary {
  private CLibrary() {}

  private static final String SEARCH_PATH = "jna.platform.library.path";

  static LibC load() {
    Path mapped = mappedCLibrary();
    if (mapped != null) {
      if (System.getProperty(SEARCH_PATH) == null) {
        // Nothing is loaded by name after this: no search path to work out.
        System.setProperty(SEARCH_PATH, "");
      }
      try {
        return Native.load(mapped.toString(), LibC.class);
      } catch (UnsatisfiedLinkError e) {
        // By name below.
      }
    }
    return Native.load("c", LibC.class);
  }

  /** The C library among this process's mappings (glibc's libc.so.6, musl's libc.musl-*.so.1). */
  private static Path mappedCLibrary() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/maps"), StandardCharsets.UTF_8)) {
        int slash = line.indexOf('/');
        if (slash < 0) {
          continue;
        }
        Path file = Path.of(line.substring(slash));
        String name = String.valueOf(file.getFileName());
        if (name.startsWith("libc.so.") || name.startsWith("libc.musl-")) {
          return file;
        }
      }
    } catch (IOException | RuntimeException e) {
      // No /proc here: by name.
    }
    return null;
  }
}
