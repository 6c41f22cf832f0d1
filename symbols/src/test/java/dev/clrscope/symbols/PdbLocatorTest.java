package dev.clrscope.symbols;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finding Lines.dll's PDB as debuggers do (embedded, beside, --symbol-path flat and by key, a
 * symbol server by SSQP key into the cache) and refusing what is not its PDB: another build's, a
 * Windows one, a damaged one, a FIFO.
 */
class PdbLocatorTest {
  @TempDir Path dir;
  @TempDir Path elsewhere;
  @TempDir Path cache;
  @TempDir Path served;

  private ServedStore server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static final int THROW_LINE = PdbFixtures.line("throw");

  /** The portable build's assembly copied into {@code to}, without its PDB. */
  private static Path assemblyIn(Path to) throws IOException {
    return Files.copy(PdbFixtures.portableDll(), to.resolve("Lines.dll"));
  }

  private static ManagedModule module(Path dll) {
    return new ManagedModule(dll.toString(), null, null);
  }

  private SymbolSearch search(List<Path> dirs, URI server) {
    return new SymbolSearch(
        dirs,
        new SymbolStore(
            cache,
            server == null ? null : new SymbolStore.Server(server, Duration.ofSeconds(5), true),
            1 << 24,
            note -> {}));
  }

  private static int throwLine(PdbLocator.Found f) throws PdbFormatException {
    return f.pdb().lineOf(PdbFixtures.THROW, 0).line();
  }

  @Test
  void anEmbeddedPdbIsUsedWithNoFileBesideIt() throws Exception {
    Path dll = Files.copy(PdbFixtures.embeddedDll(), dir.resolve("Lines.dll"));
    PdbLocator.Found f = new PdbLocator(search(List.of(), null)).find(module(dll));
    assertThat(f.where()).isEqualTo("embedded in " + dll);
    assertThat(throwLine(f)).isEqualTo(THROW_LINE);
  }

  @Test
  void thePdbBesideTheAssemblyIsUsed() throws Exception {
    Path dll = assemblyIn(dir);
    Files.copy(PdbFixtures.portablePdb(), dir.resolve("Lines.pdb"));
    PdbLocator.Found f = new PdbLocator(search(List.of(), null)).find(module(dll));
    assertThat(f.where()).isEqualTo("at " + dir.resolve("Lines.pdb"));
    assertThat(throwLine(f)).isEqualTo(THROW_LINE);
  }

  @Test
  void aSymbolPathDirectoryIsLookedInFlatAndByKey() throws Exception {
    Path dll = assemblyIn(dir);
    PdbLocator.Found none;
    assertThatThrownBy(() -> new PdbLocator(search(List.of(), null)).find(module(dll)))
        .isInstanceOfSatisfying(
            PdbLocator.NotFound.class, e -> assertThat(e.worthWarning()).isFalse())
        .hasMessageStartingWith("no PDB for Lines.dll: not at " + dir.resolve("Lines.pdb"));

    Files.copy(PdbFixtures.portablePdb(), elsewhere.resolve("Lines.pdb"));
    none = new PdbLocator(search(List.of(elsewhere), null)).find(module(dll));
    assertThat(none.where()).isEqualTo("at " + elsewhere.resolve("Lines.pdb"));
    assertThat(throwLine(none)).isEqualTo(THROW_LINE);

    Files.delete(elsewhere.resolve("Lines.pdb"));
    Path keyed = elsewhere.resolve(key());
    Files.createDirectories(keyed.getParent());
    Files.copy(PdbFixtures.portablePdb(), keyed);
    PdbLocator.Found f = new PdbLocator(search(List.of(elsewhere), null)).find(module(dll));
    assertThat(f.where()).isEqualTo("at " + keyed);
  }

  /** The SSQP key of Lines.pdb: its name, its GUID as 32 hex digits, FFFFFFFF. */
  private static String key() throws Exception {
    PortablePdb pdb = PortablePdb.parse(PdbFixtures.bytes(PdbFixtures.portablePdb()));
    String guid = pdb.id().guid().toString().replace("-", "");
    assertThat(guid).hasSize(32);
    return "lines.pdb/" + guid + "FFFFFFFF/lines.pdb";
  }

  @Test
  void aSymbolServerServesItByKeyIntoTheCache() throws Exception {
    Path dll = assemblyIn(dir);
    Path file = served.resolve(key());
    Files.createDirectories(file.getParent());
    Files.copy(PdbFixtures.portablePdb(), file);
    URI url = serve();

    PdbLocator.Found f = new PdbLocator(search(List.of(), url)).find(module(dll));
    assertThat(f.where()).isEqualTo("from " + url + "/" + key());
    assertThat(throwLine(f)).isEqualTo(THROW_LINE);
    assertThat(server.requests()).containsExactly(key());
    assertThat(cache.resolve(key())).hasSameBinaryContentAs(PdbFixtures.portablePdb());

    // The cache alone, now: no server asked.
    PdbLocator.Found again = new PdbLocator(search(List.of(), null)).find(module(dll));
    assertThat(again.where()).isEqualTo("in the cache " + cache.resolve(key()));
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void anotherBuildsPdbIsRefused() throws Exception {
    Path dll = assemblyIn(dir);
    // The PDB of another build of Lines.cs (one more line): another id.
    byte[] other = PdbFixtures.bytes(PdbFixtures.dir().resolve("other/Lines.pdb"));
    Files.write(dir.resolve("Lines.pdb"), other);
    PdbId theirs = PortablePdb.parse(other).id();
    PdbId ours = PortablePdb.parse(PdbFixtures.bytes(PdbFixtures.portablePdb())).id();
    assertThat(theirs).isNotEqualTo(ours);

    assertThatThrownBy(() -> new PdbLocator(search(List.of(), null)).find(module(dll)))
        .isInstanceOfSatisfying(
            PdbLocator.NotFound.class, e -> assertThat(e.worthWarning()).isTrue())
        .hasMessage(
            "no PDB for Lines.dll: "
                + dir.resolve("Lines.pdb")
                + " is the PDB of another build (id "
                + theirs
                + ", not "
                + ours
                + "): refused");
  }

  @Test
  void anAssemblyOfAnotherBuildThanTheOneThatRanIsNotTrusted() throws Exception {
    // The runtime's module event names a GUID the assembly on disk does not have.
    Path dll = assemblyIn(dir);
    Files.copy(PdbFixtures.portablePdb(), dir.resolve("Lines.pdb"));
    PdbId ran =
        PdbId.ofGuid(dev.clrscope.nettrace.Guid.parse("11111111-2222-3333-4444-555555555555"));
    assertThatThrownBy(
            () ->
                new PdbLocator(search(List.of(), null))
                    .find(new ManagedModule(dll.toString(), ran, "/src/lines/Lines.pdb")))
        .isInstanceOfSatisfying(
            PdbLocator.NotFound.class, e -> assertThat(e.worthWarning()).isTrue())
        .hasMessageContaining(dll + " is another build than the one that ran")
        .hasMessageContaining(dir.resolve("Lines.pdb") + " is the PDB of another build");
  }

  @Test
  void aTraceOfAnotherMachineFindsThePdbByTheEventsIdAndName() throws Exception {
    // No assembly here; the module event's GUID and PDB path are enough for --symbol-path.
    PortablePdb pdb = PortablePdb.parse(PdbFixtures.bytes(PdbFixtures.portablePdb()));
    Files.copy(PdbFixtures.portablePdb(), elsewhere.resolve("Lines.pdb"));
    PdbLocator.Found f =
        new PdbLocator(search(List.of(elsewhere), null))
            .find(
                new ManagedModule(
                    "/app/of/another/machine/Lines.dll",
                    PdbId.ofGuid(pdb.id().guid()),
                    "/src/lines/obj/Release/net10.0/Lines.pdb"));
    assertThat(f.where()).isEqualTo("at " + elsewhere.resolve("Lines.pdb"));
  }

  @Test
  void aWindowsPdbIsNoPortablePdb() throws Exception {
    Path dll = assemblyIn(dir);
    Files.write(
        dir.resolve("Lines.pdb"),
        "Microsoft C/C++ MSF 7.00\r\n\u001aDS\0\0\0".getBytes(StandardCharsets.ISO_8859_1));
    assertThatThrownBy(() -> new PdbLocator(search(List.of(), null)).find(module(dll)))
        .isInstanceOfSatisfying(
            PdbLocator.NotFound.class, e -> assertThat(e.worthWarning()).isTrue())
        .hasMessage(
            "no PDB for Lines.dll: "
                + dir.resolve("Lines.pdb")
                + " is a Windows PDB, no portable PDB");
  }

  @Test
  void anAssemblyNamingAWindowsPdbHasNoPortablePdb() throws Exception {
    byte[] dll = PdbFixtures.bytes(PdbFixtures.portableDll());
    // The CodeView entry's minor version: "PM" (0x504D) for portable, 0 for a Windows PDB.
    int at = codeViewMinorVersion(dll);
    dll[at] = 0;
    dll[at + 1] = 0;
    Path file = Files.write(dir.resolve("Lines.dll"), dll);
    assertThatThrownBy(() -> new PdbLocator(search(List.of(), null)).find(module(file)))
        .isInstanceOfSatisfying(
            PdbLocator.NotFound.class, e -> assertThat(e.worthWarning()).isTrue())
        .hasMessage(
            "no portable PDB for Lines.dll: it names a Windows PDB (Lines.pdb), which clrscope"
                + " does not read");
  }

  /** Where the CodeView entry's minor version is: the 0x504D after the debug entry's stamp. */
  private static int codeViewMinorVersion(byte[] dll) {
    for (int i = 0; i + 16 < dll.length; i++) {
      // Characteristics 0, a stamp, major 0x0100, minor 0x504D, type 2.
      if (dll[i] == 0
          && dll[i + 1] == 1
          && dll[i + 2] == 0x4D
          && dll[i + 3] == 0x50
          && dll[i + 4] == 2
          && dll[i + 5] == 0
          && dll[i + 6] == 0
          && dll[i + 7] == 0) {
        return i + 2;
      }
    }
    throw new AssertionError("no portable CodeView entry");
  }

  @Test
  void aFifoWhereThePdbShouldBeIsNotOpened() throws Exception {
    Path dll = assemblyIn(dir);
    Path fifo = dir.resolve("Lines.pdb");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(mk.waitFor()).isZero();
    assertThatThrownBy(() -> new PdbLocator(search(List.of(), null)).find(module(dll)))
        .isInstanceOfSatisfying(
            PdbLocator.NotFound.class, e -> assertThat(e.worthWarning()).isTrue())
        .hasMessage("no PDB for Lines.dll: " + fifo + ": it is a FIFO, not a regular file");
  }

  @Test
  void anUnreachableServerIsSaidOnceAndNotAskedAgain() throws Exception {
    Path dll = assemblyIn(dir);
    URI url = serve();
    server.close();
    PdbLocator locator = new PdbLocator(search(List.of(), url));
    assertThatThrownBy(() -> locator.find(module(dll)))
        .isInstanceOfSatisfying(
            PdbLocator.NotFound.class, e -> assertThat(e.worthWarning()).isTrue())
        .hasMessageContaining("could not be reached")
        .hasMessageEndingWith("(not asked again in this run)");
    Path other = Files.copy(PdbFixtures.portableDll(), elsewhere.resolve("Lines.dll"));
    assertThatThrownBy(() -> locator.find(module(other)))
        .isInstanceOfSatisfying(
            PdbLocator.NotFound.class, e -> assertThat(e.worthWarning()).isFalse());
  }

  private URI serve() throws IOException {
    server = new ServedStore(served);
    return server.url();
  }
}
