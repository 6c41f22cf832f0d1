package dev.clrscope.symbols;

import dev.clrscope.nettrace.InputFile;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A perf map, {@code /tmp/perf-PID.map}, which the runtime writes when perf maps are enabled
 * ({@code DOTNET_PerfMapEnabled}, or {@code clrscope perfmap --enable}): one line per piece of
 * generated code, {@code START SIZE name} with START and SIZE in hex. It names JIT'd methods and
 * the runtime's stubs.
 */
public final class PerfMap {
  private final AddressTable table;

  private PerfMap(AddressTable table) {
    this.table = table;
  }

  /** The perf map of process {@code pid}, if there is one. */
  public static PerfMap forProcess(long pid) {
    return read(Path.of("/tmp/perf-" + pid + ".map"));
  }

  /** Reads a perf map; a missing or unreadable file, or a malformed line, gives no names. */
  public static PerfMap read(Path file) {
    AddressTable.Builder b = new AddressTable.Builder();
    if (Files.isRegularFile(file)) {
      try (BufferedReader r =
          new BufferedReader(
              new InputStreamReader(InputFile.newInputStream(file), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          int sp1 = line.indexOf(' ');
          int sp2 = sp1 < 0 ? -1 : line.indexOf(' ', sp1 + 1);
          if (sp2 < 0) {
            continue;
          }
          try {
            long start = Long.parseUnsignedLong(strip0x(line.substring(0, sp1)), 16);
            long size = Long.parseUnsignedLong(strip0x(line.substring(sp1 + 1, sp2)), 16);
            b.add(start, size, line.substring(sp2 + 1).strip());
          } catch (NumberFormatException e) {
            // Not a map line: skip it.
          }
        }
      } catch (IOException e) {
        // A map being written or removed as we read it: what was read stays.
      }
    }
    return new PerfMap(b.build());
  }

  private static String strip0x(String s) {
    return s.startsWith("0x") || s.startsWith("0X") ? s.substring(2) : s;
  }

  /** The code holding {@code ip}, or {@code null}. */
  public String nameOrNull(long ip) {
    return table.nameOrNull(ip);
  }

  /** Number of entries. */
  public int size() {
    return table.size();
  }
}
