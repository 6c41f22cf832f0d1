package dev.clrscope.symbols;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged PDB, beside its assembly or inside it, ends cleanly: every cut of a real one and
 * thousands of seeded random corruptions give each frame a line or none, and at most one problem
 * for the module, which says why; never an exception, a hang, or a heap filled from a claimed
 * length. A PDB beside an assembly that records its checksum (the SDK's default) is never used
 * damaged; an assembly's own bytes, corrupted, may still name a line (its code is not checked).
 */
class PdbDamageTest {
  @TempDir Path dir;
  @TempDir Path cache;

  private static final int[] METHODS = {PdbFixtures.ADD, PdbFixtures.LOOP, PdbFixtures.THROW};

  private SourceLines lines() {
    return new SourceLines(
        new SymbolSearch(List.of(), new SymbolStore(cache, null, Duration.ofSeconds(1), 1 << 20)));
  }

  /** Looks up every method at a few IL offsets; returns the lines of the throw at IL 0. */
  private static SourceLine lookUpAll(SourceLines lines, ManagedModule m) {
    SourceLine throwLine = null;
    for (int token : METHODS) {
      for (int il = 0; il < 24; il += 3) {
        SourceLine l = lines.lineOf(m, token, il);
        if (token == PdbFixtures.THROW && il == 0) {
          throwLine = l;
        }
      }
    }
    return throwLine;
  }

  @Test
  void everyCutOfThePdbBesideTheAssemblyGivesNoLineAndOneWarning() throws Exception {
    Path dll = Files.copy(PdbFixtures.portableDll(), dir.resolve("Lines.dll"));
    byte[] pdb = PdbFixtures.bytes(PdbFixtures.portablePdb());
    ManagedModule m = new ManagedModule(dll.toString(), null, null);
    int whole = 0;
    for (int cut = 0; cut < pdb.length; cut++) {
      Files.write(dir.resolve("Lines.pdb"), Arrays.copyOf(pdb, cut));
      SourceLines lines = lines();
      SourceLine l = lookUpAll(lines, m);
      if (l == null) {
        assertThat(lines.problems()).as("cut at %d", cut).hasSize(1);
        assertThat(lines.problems().get(0))
            .as("cut at %d", cut)
            .startsWith("no PDB for Lines.dll: " + dir.resolve("Lines.pdb"))
            .endsWith("; its frames print without lines");
      } else {
        // Only padding after the last stream was cut: the PDB is whole.
        assertThat(l.line()).isEqualTo(PdbFixtures.line("throw"));
        assertThat(lines.problems()).isEmpty();
        whole++;
      }
    }
    assertThat(whole).isLessThan(4);
  }

  @Test
  void everyCutOfAnAssemblyWithItsPdbInsideEndsCleanly() throws Exception {
    byte[] dll = PdbFixtures.bytes(PdbFixtures.embeddedDll());
    for (int cut = 0; cut < dll.length; cut++) {
      Path file = Files.write(dir.resolve("Lines.dll"), Arrays.copyOf(dll, cut));
      SourceLines lines = lines();
      SourceLine l = lookUpAll(lines, new ManagedModule(file.toString(), null, null));
      assertThat(lines.problems()).as("cut at %d", cut).hasSizeLessThanOrEqualTo(1);
      if (l != null) {
        assertThat(l.line()).isEqualTo(PdbFixtures.line("throw"));
      }
    }
  }

  @Test
  void randomCorruptionsOfThePdbEndInALineOrOneWarning() throws Exception {
    Path dll = Files.copy(PdbFixtures.portableDll(), dir.resolve("Lines.dll"));
    byte[] pdb = PdbFixtures.bytes(PdbFixtures.portablePdb());
    ManagedModule m = new ManagedModule(dll.toString(), null, null);
    Random random = new Random(27);
    int warned = 0;
    for (int round = 0; round < 3000; round++) {
      byte[] bad = pdb.clone();
      int flips = 1 + random.nextInt(8);
      for (int i = 0; i < flips; i++) {
        int at = random.nextInt(bad.length);
        bad[at] = (byte) (random.nextBoolean() ? random.nextInt(256) : bad[at] ^ 0x80);
      }
      Files.write(dir.resolve("Lines.pdb"), bad);
      SourceLines lines = lines();
      SourceLine l = lookUpAll(lines, m);
      if (Arrays.equals(bad, pdb)) {
        continue; // every flip wrote the byte that was there
      }
      // The assembly records the PDB's checksum: any change is caught, never a wrong line.
      assertThat(l).as("round %d", round).isNull();
      assertThat(lines.problems()).as("round %d", round).hasSize(1);
      warned++;
    }
    assertThat(warned).isGreaterThan(2900);
  }

  @Test
  void randomCorruptionsOfAnAssemblyWithItsPdbInsideEndInALineOrOneWarning() throws Exception {
    byte[] dll = PdbFixtures.bytes(PdbFixtures.embeddedDll());
    Random random = new Random(2700);
    for (int round = 0; round < 2000; round++) {
      byte[] bad = dll.clone();
      int flips = 1 + random.nextInt(8);
      for (int i = 0; i < flips; i++) {
        int at = random.nextInt(bad.length);
        bad[at] = (byte) random.nextInt(256);
      }
      Path file = Files.write(dir.resolve("Lines.dll"), bad);
      SourceLines lines = lines();
      lookUpAll(lines, new ManagedModule(file.toString(), null, null));
      assertThat(lines.problems()).as("round %d", round).hasSizeLessThanOrEqualTo(1);
    }
  }
}
