package dev.clrscope.symbols;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A stripped library whose local functions are named only by its {@code .gnu_debuglink} file. */
class ElfSymbolsTest {
  private static final String DIR = "/dev/clrscope/symbols/debuglink/";

  @TempDir Path dir;

  private Path copy(String name, Path to) throws Exception {
    Files.createDirectories(to.getParent());
    try (var in = ElfSymbolsTest.class.getResourceAsStream(DIR + name)) {
      Files.copy(in, to);
    }
    return to;
  }

  @Test
  void theDebugFileBesideTheLibraryNamesItsLocalFunctions() throws Exception {
    Path lib = copy("libwidget.so", dir.resolve("libwidget.so"));
    copy("libwidget.so.dbg", dir.resolve("libwidget.so.dbg"));
    ElfSymbols s = ElfSymbols.read(lib);
    assertThat(s.nameAtOffset(0x10f9)).isEqualTo("helper_hidden");
    assertThat(s.nameAtOffset(0x10f9 + 12)).isEqualTo("helper_hidden");
    assertThat(s.nameAtOffset(0x1106 + 4)).isEqualTo("widget_exported");
    assertThat(s.nameAtOffset(0x1106 + 9)).isNull();
  }

  @Test
  void theDebugFileInDotDebugIsFoundToo() throws Exception {
    Path lib = copy("libwidget.so", dir.resolve("libwidget.so"));
    copy("libwidget.so.dbg", dir.resolve(".debug/libwidget.so.dbg"));
    assertThat(ElfSymbols.read(lib).nameAtOffset(0x10fa)).isEqualTo("helper_hidden");
  }

  @Test
  void withoutTheDebugFileOnlyTheExportedFunctionIsNamed() throws Exception {
    Path lib = copy("libwidget.so", dir.resolve("libwidget.so"));
    ElfSymbols s = ElfSymbols.read(lib);
    assertThat(s.nameAtOffset(0x10fa)).isNull();
    assertThat(s.nameAtOffset(0x1107)).isEqualTo("widget_exported");
    // Mapped at 0x7f0000000000 (text segment at file offset 0x1000): module and symbol, or
    // module and address.
    ProcessMaps maps =
        ProcessMaps.parse(
            "7f0000000000-7f0000001000 r--p 00000000 08:01 7 "
                + lib
                + "\n"
                + "7f0000001000-7f0000002000 r-xp 00001000 08:01 7 "
                + lib
                + "\n");
    assertThat(maps.nameOrNull(0x7f0000001107L)).isEqualTo("libwidget.so!widget_exported");
    assertThat(maps.nameOrNull(0x7f00000010faL)).isEqualTo("libwidget.so!0x7f00000010fa");
  }
}
