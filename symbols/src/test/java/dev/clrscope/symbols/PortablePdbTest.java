package dev.clrscope.symbols;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The portable PDB reader on a real PDB that the C# compiler wrote for Lines.cs. */
class PortablePdbTest {
  @Test
  void aMethodsFirstInstructionIsOnItsFirstStatementsLine() throws Exception {
    PortablePdb pdb = PortablePdb.parse(PdbFixtures.bytes(PdbFixtures.portablePdb()));
    SourceLine line = pdb.lineOf(PdbFixtures.ADD, 0);
    assertThat(line).isEqualTo(new SourceLine("/src/lines/Lines.cs", PdbFixtures.line("add")));
    assertThat(line.text()).isEqualTo("Lines.cs:" + PdbFixtures.line("add"));
  }

  @Test
  void theThrowIsOnTheThrowStatementsLine() throws Exception {
    PortablePdb pdb = PortablePdb.parse(PdbFixtures.bytes(PdbFixtures.portablePdb()));
    assertThat(pdb.lineOf(PdbFixtures.THROW, 0).line()).isEqualTo(PdbFixtures.line("throw"));
  }

  @Test
  void theIdIsTheOneTheAssemblyNames() throws Exception {
    PortablePdb pdb = PortablePdb.parse(PdbFixtures.bytes(PdbFixtures.portablePdb()));
    PeDebugInfo pe = PdbFixtures.debugInfo(PdbFixtures.portableDll());
    assertThat(pe.portableCodeView()).isNotNull();
    assertThat(pe.portableCodeView().id()).isEqualTo(pdb.id());
    assertThat(pe.portableCodeView().path()).isEqualTo("/src/lines/obj/Release/net10.0/Lines.pdb");
    assertThat(pe.hasEmbeddedPdb()).isFalse();
    assertThat(pdb.methodCount()).isEqualTo(3);
  }

  @Test
  void anEmbeddedPdbInflatesToOneWithTheAssemblysId() throws Exception {
    PeDebugInfo pe = PdbFixtures.debugInfo(PdbFixtures.embeddedDll());
    assertThat(pe.hasEmbeddedPdb()).isTrue();
    PortablePdb pdb = PortablePdb.parse(pe.embeddedPdb());
    assertThat(pdb.id()).isEqualTo(pe.portableCodeView().id());
    assertThat(pdb.lineOf(PdbFixtures.THROW, 0).line()).isEqualTo(PdbFixtures.line("throw"));
  }

  @Test
  void everyIlOffsetOfTheLoopMapsToALineOfTheMethod() throws Exception {
    PortablePdb pdb = PortablePdb.parse(PdbFixtures.bytes(PdbFixtures.portablePdb()));
    int body = PdbFixtures.line("loop body");
    boolean sawBody = false;
    for (int il = 0; il < 40; il++) {
      SourceLine l = pdb.lineOf(PdbFixtures.LOOP, il);
      assertThat(l).isNotNull();
      assertThat(l.line()).isBetween(body - 5, body + 3);
      sawBody |= l.line() == body;
    }
    assertThat(sawBody).isTrue();
  }

  @Test
  void tokensOfNoMethodHaveNoLine() throws Exception {
    PortablePdb pdb = PortablePdb.parse(PdbFixtures.bytes(PdbFixtures.portablePdb()));
    assertThat(pdb.lineOf(0x06000000, 0)).isNull();
    assertThat(pdb.lineOf(0x06000099, 0)).isNull();
    assertThat(pdb.lineOf(0x02000001, 0)).isNull();
  }
}
