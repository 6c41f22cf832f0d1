package dev.clrscope.heapwalk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * .gcdump files the real dotnet-gcdump 10 wrote of .NET 10 apps (../shared/fixtures/gcdump, with
 * the facts of their README), and every way a file can be cut or corrupted.
 */
class GcDumpReaderTest {
  private static Path fixture(String name) {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      Path candidate = p.resolve("shared/fixtures/gcdump").resolve(name);
      if (Files.exists(candidate)) {
        return candidate;
      }
      candidate = p.resolve("../shared/fixtures/gcdump").resolve(name).normalize();
      if (Files.exists(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError("shared/fixtures/gcdump/" + name + " not found (tests must not skip)");
  }

  private static TypeStatistics type(HeapSnapshot s, String name) {
    return s.typeStatistics().stream()
        .filter(t -> t.type().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no type " + name));
  }

  @Test
  void widgetDumpCountsAndRetainsExactly() throws Exception {
    HeapSnapshot s = GcDumpReader.read(fixture("widget.gcdump"));
    // The header of dotnet-gcdump's report: 5,986,474 GC heap bytes.
    assertThat(s.totalSize()).isEqualTo(5_986_474);
    assertThat(type(s, "Widget"))
        .isEqualTo(new TypeStatistics("Widget", 123_457, 4_938_280, 4_938_280));
    // The one Widget[] ("Widget[] (Bytes > 100K)" in the file) holds every Widget: together the
    // 5,925,960 bytes the README calls app-owned.
    assertThat(type(s, "Widget[]"))
        .isEqualTo(new TypeStatistics("Widget[]", 1, 987_680, 5_925_960));
    List<HeapSnapshot.PathStep> path = s.pathsTo(t -> t.equals("Widget"), 1).get(0);
    assertThat(path.stream().map(HeapSnapshot.PathStep::type).toList())
        .containsSubsequence("[static var Widget[].Widgets]", "Widget[]", "Widget");
    assertThat(s.unreachableCount()).isZero();
  }

  @Test
  void genericDumpGenericNamesChainsAndAStackOnlyObject() throws Exception {
    HeapSnapshot s = GcDumpReader.read(fixture("generic.gcdump"));
    assertThat(s.totalSize()).isEqualTo(184_846);
    assertThat(type(s, "ChainNode"))
        .isEqualTo(new TypeStatistics("ChainNode", 1000, 32_000, 32_000));
    // dotnet-gcdump wrote Dictionary<System.String,System.Int32[]>: read in clrscope's spelling.
    assertThat(
            type(s, "System.Collections.Generic.Dictionary<System.String, System.Int32[]>").count())
        .isEqualTo(50);
    assertThat(type(s, "Entry<System.String, System.Int32[]>[]").totalSize()).isEqualTo(28_800);
    // dotnet-gcdump's 1,059 plus the one it lists as "System.Int32[] (Bytes > 1K)".
    assertThat(type(s, "System.Int32[]").count()).isEqualTo(1060);
    assertThat(type(s, "StackOnly").count()).isEqualTo(1);
    assertThat(s.pathsTo(t -> t.equals("StackOnly"), 1).get(0).get(2).type())
        .isEqualTo("[local vars]");
    assertThat(
            s.pathsTo(t -> t.equals("ChainNode"), 1).get(0).stream()
                .map(HeapSnapshot.PathStep::type))
        .contains("[static var ChainNode.ChainHead]");
  }

  @Test
  void lohDumpCountsTheBigArrayWithItsSmallSibling() throws Exception {
    HeapSnapshot s = GcDumpReader.read(fixture("loh.gcdump"));
    assertThat(s.totalSize()).isEqualTo(105_858_212);
    // "System.Byte[] (Bytes > 100M)" and the runtime's empty byte[] are one type.
    assertThat(type(s, "System.Byte[]").count()).isEqualTo(2);
    assertThat(type(s, "System.Byte[]").totalSize()).isEqualTo(104_857_624 + 24);
    // dotnet-gcdump's 10,142 strings of 868,742 bytes, plus the one of 29,376 bytes it lists as
    // "System.String (Bytes > 10K)".
    assertThat(type(s, "System.String").count()).isEqualTo(10_143);
    assertThat(type(s, "System.String").totalSize()).isEqualTo(868_742 + 29_376);
  }

  @Test
  void everyTruncationEndsInAnErrorNamingTheOffset() throws Exception {
    byte[] whole = Files.readAllBytes(fixture("generic.gcdump"));
    // Every cut, from the empty file to one byte short.
    for (int cut = 0; cut < whole.length; cut++) {
      byte[] part = java.util.Arrays.copyOf(whole, cut);
      int at = cut;
      assertThatThrownBy(() -> GcDumpReader.parse(part))
          .as("cut at %d", at)
          .isInstanceOf(GcDumpFormatException.class)
          .hasMessageStartingWith("at offset ");
    }
  }

  @Test
  void randomCorruptionEndsInAnErrorOrAGraphNeverACrash() throws Exception {
    byte[] whole = Files.readAllBytes(fixture("generic.gcdump"));
    Random random = new Random(7);
    for (int round = 0; round < 2000; round++) {
      byte[] bad = whole.clone();
      for (int k = 0; k < 1 + random.nextInt(4); k++) {
        bad[random.nextInt(bad.length)] = (byte) random.nextInt(256);
      }
      try {
        HeapSnapshot s = GcDumpReader.parse(bad);
        // A flip in a value (a size, an address) still reads: the graph must still add up.
        assertThat(s.typeStatistics()).isNotNull();
      } catch (GcDumpFormatException e) {
        assertThat(e.getMessage()).startsWith("at offset ");
      }
    }
  }

  @Test
  void notAGcdumpSaysSo() {
    assertThatThrownBy(() -> GcDumpReader.parse("hello world, not a dump".getBytes()))
        .isInstanceOf(GcDumpFormatException.class)
        .hasMessageContaining("at offset ");
  }
}
