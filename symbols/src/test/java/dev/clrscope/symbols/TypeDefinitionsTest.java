package dev.clrscope.symbols;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Type definitions named whole from the installed runtime's System.Private.CoreLib.dll. */
class TypeDefinitionsTest {
  private static Path coreLib() throws Exception {
    Path lib = NativeSymbolsTest.libcoreclr().resolveSibling("System.Private.CoreLib.dll");
    assertThat(Files.isRegularFile(lib)).isTrue();
    return lib;
  }

  /** Every type definition's name by token. */
  private static Map<String, Integer> byName(TypeDefinitions types) throws Exception {
    Map<String, Integer> out = new HashMap<>();
    for (int row = 1; ; row++) {
      String name = types.name(0x0200_0000 | row);
      if (name == null) {
        return out;
      }
      out.putIfAbsent(name, 0x0200_0000 | row);
    }
  }

  @Test
  void nestedTypesAreNamedWithEveryTypeTheyAreDeclaredIn() throws Exception {
    TypeDefinitions types = TypeDefinitions.read(coreLib());
    Map<String, Integer> byName = byName(types);
    assertThat(byName).containsKey("<Module>");
    assertThat(byName).containsKeys("System.String", "System.Collections.Generic.Dictionary`2");
    int entry = byName.get("System.Collections.Generic.Dictionary`2+Entry");
    assertThat(types.isNested(entry)).isTrue();
    assertThat(types.isNested(byName.get("System.String"))).isFalse();
    assertThat(byName)
        .containsKey(
            "System.Runtime.CompilerServices.AsyncTaskMethodBuilder`1+AsyncStateMachineBox`1");
    assertThat(types.name(0x0100_0001)).isNull();
    assertThat(types.name(0x02ff_ffff)).isNull();
  }

  /** The metadata of a file as a loaded module's is read: from its root on, in pieces. */
  private static PeDebugInfo.Source from(byte[] file, int at) {
    return (offset, dst) -> {
      if (offset < 0 || offset > file.length - at - dst.length) {
        return false;
      }
      System.arraycopy(file, at + (int) offset, dst, 0, dst.length);
      return true;
    };
  }

  @Test
  void fieldCountsSayEachTypeDefsInstanceFieldsAndKeptStatics() throws Exception {
    byte[] file = Files.readAllBytes(coreLib());
    int metadata = indexOf(file, new byte[] {'B', 'S', 'J', 'B'});
    TypeDefinitions.FieldCounts counts =
        TypeDefinitions.fieldCounts(from(file, metadata), file.length - metadata);
    Map<String, Integer> byName = byName(TypeDefinitions.of(file));
    assertThat(counts.instance()).hasSize(byName.size() + 1);
    assertThat(counts.statics()).hasSameSizeAs(counts.instance());
    int string = byName.get("System.String") & 0xFFFFFF;
    // _stringLength and _firstChar; String.Empty is a static readonly field the runtime keeps.
    assertThat(counts.instance()[string]).isEqualTo(2);
    assertThat(counts.statics()[string]).isPositive();
    int object = byName.get("System.Object") & 0xFFFFFF;
    assertThat(counts.instance()[object]).isZero();
    assertThat(counts.statics()[object]).isZero();
    // Int32's MaxValue and MinValue are literals: no statics the runtime keeps; m_value its one.
    int int32 = byName.get("System.Int32") & 0xFFFFFF;
    assertThat(counts.instance()[int32]).isEqualTo(1);
    assertThat(counts.statics()[int32]).isZero();
  }

  @Test
  void fieldCountsOfDamagedOrMissingMetadataAreOneFormatError() throws Exception {
    byte[] good = Files.readAllBytes(coreLib());
    int metadata = indexOf(good, new byte[] {'B', 'S', 'J', 'B'});
    for (long size : new long[] {0, 4, 16, 100, 1000}) {
      assertThatThrownBy(() -> TypeDefinitions.fieldCounts(from(good, metadata), size))
          .isInstanceOf(PdbFormatException.class);
    }
    Random random = new Random(35);
    for (int i = 0; i < 300; i++) {
      byte[] bad = good.clone();
      for (int j = 0; j < 8; j++) {
        bad[metadata + random.nextInt(600)] = (byte) random.nextInt(256);
      }
      try {
        TypeDefinitions.fieldCounts(from(bad, metadata), bad.length - metadata);
      } catch (PdbFormatException expected) {
        // a clean refusal
      }
    }
  }

  private static int indexOf(byte[] data, byte[] what) {
    outer:
    for (int i = 0; i <= data.length - what.length; i++) {
      for (int j = 0; j < what.length; j++) {
        if (data[i + j] != what[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Test
  void aFileThatIsNoAssemblyOrIsDamagedIsOneFormatError() throws Exception {
    byte[] good = Files.readAllBytes(coreLib());
    assertThatThrownBy(() -> TypeDefinitions.of("not an assembly".getBytes()))
        .isInstanceOf(PdbFormatException.class);
    for (int cut : new int[] {0, 10, 64, 200, 400, 1000, good.length / 2}) {
      byte[] head = java.util.Arrays.copyOf(good, cut);
      try {
        TypeDefinitions t = TypeDefinitions.of(head);
        t.name(0x0200_0002);
      } catch (PdbFormatException expected) {
        // a clean refusal
      }
    }
    int metadata = indexOf(good, new byte[] {'B', 'S', 'J', 'B'});
    assertThat(metadata).isPositive();
    Random random = new Random(32);
    for (int i = 0; i < 400; i++) {
      byte[] bad = good.clone();
      for (int j = 0; j < 8; j++) {
        // The PE headers, or the metadata root, its stream headers and the tables' head.
        int at = i % 2 == 0 ? random.nextInt(1024) : metadata + random.nextInt(512);
        bad[at] = (byte) random.nextInt(256);
      }
      try {
        TypeDefinitions t = TypeDefinitions.of(bad);
        for (int row = 1; row < 50; row++) {
          t.name(0x0200_0000 | row);
        }
      } catch (PdbFormatException expected) {
        // a clean refusal
      }
    }
  }
}
