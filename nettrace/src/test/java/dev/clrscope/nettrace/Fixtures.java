package dev.clrscope.nettrace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/** Locates the shared golden traces: walks up from the working directory to shared/fixtures. */
final class Fixtures {
  private Fixtures() {}

  static Path root() {
    Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    for (Path p = dir; p != null; p = p.getParent()) {
      Path candidate = p.resolve("shared").resolve("fixtures");
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError("shared/fixtures not found above " + dir + " (tests must not skip)");
  }

  static Path perfview(String name) {
    return existing(root().resolve("perfview").resolve(name));
  }

  static Path pyroscope(String name) {
    return existing(root().resolve("pyroscope").resolve(name));
  }

  private static Path existing(Path p) {
    if (!Files.isRegularFile(p)) {
      throw new AssertionError("missing fixture " + p);
    }
    return p;
  }

  static final String ARRAY_TYPES = "eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace";
  static final String CHECKPOINTS = "eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace";
  static final String NETPERF_ZIP = "eventpipe-dotnetcore2.1-linux-x64-objver3.netperf.zip";
  static final String SAMPLE_PROFILER = "dotnet-5.0-SampleProfiler-single-thread.nettrace";

  /** Unzips the netperf V3 fixture into {@code dir} and returns the trace path. */
  static Path unzipNetperf(Path dir) throws IOException {
    try (InputStream in = Files.newInputStream(perfview(NETPERF_ZIP));
        ZipInputStream zip = new ZipInputStream(in)) {
      ZipEntry entry;
      while ((entry = zip.getNextEntry()) != null) {
        if (entry.getName().endsWith(".netperf")) {
          Path out = dir.resolve("trace.netperf");
          Files.copy(zip, out, StandardCopyOption.REPLACE_EXISTING);
          return out;
        }
      }
    }
    throw new AssertionError("no .netperf entry in " + NETPERF_ZIP);
  }
}
