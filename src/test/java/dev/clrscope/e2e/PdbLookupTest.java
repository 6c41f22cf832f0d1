package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clrscope.symbols.PdbId;
import dev.clrscope.symbols.PortablePdb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where {@code exceptions} finds LinesApp's PDB, end to end: inside the assembly
 * (LinesAppEmbedded), beside it, in a {@code --symbol-path} directory, served by a symbol server
 * over HTTP by its SSQP key into the cache; and what it refuses, with one warning: another build's
 * PDB, a damaged one. LinesApp throws three exceptions at its marked line and exits.
 */
class PdbLookupTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int THROW = SourceMarkers.line("LinesApp", "Program.cs", "lines-app-throw");

  @TempDir Path app;
  @TempDir Path symbols;
  @TempDir Path cache;

  /** {@code exceptions --format json -- dotnet DLL}: the run, with the cache in {@link #cache}. */
  private CliResult watch(Path dll, String... options) {
    List<String> args = new java.util.ArrayList<>(List.of("exceptions", "--format", "json"));
    args.addAll(Arrays.asList(options));
    args.addAll(
        List.of(
            "--show-child-io", "false", "--", DotnetApps.dotnet().toString(), dll.toString(), "3"));
    CliResult r =
        Clrscope.run(
            TIMEOUT,
            Map.of("XDG_CACHE_HOME", cache.toString()),
            Clrscope.root(),
            args.toArray(String[]::new));
    assertThat(r.exitCode()).as("%s", r).isZero();
    return r;
  }

  /** The throw site of every row, which must be Thrower.Fail. */
  private static List<JsonNode> rows(CliResult r) throws IOException {
    JsonNode doc = JSON.readTree(r.stdout());
    List<JsonNode> rows = new java.util.ArrayList<>();
    doc.path("records").forEach(rows::add);
    assertThat(rows).hasSize(3);
    assertThat(rows)
        .allSatisfy(x -> assertThat(x.path("throwSite").asText()).isEqualTo("Thrower.Fail"));
    return rows;
  }

  private static void assertLine(CliResult r) throws IOException {
    for (JsonNode row : rows(r)) {
      assertThat(row.path("file").asText()).endsWith("/LinesApp/Program.cs");
      assertThat(row.path("line").asInt()).isEqualTo(THROW);
    }
  }

  private static void assertNoLine(CliResult r) throws IOException {
    for (JsonNode row : rows(r)) {
      assertThat(row.has("line")).isFalse();
      assertThat(row.has("file")).isFalse();
    }
  }

  /** The warnings of a run: its stderr lines that start as clrscope's warnings do. */
  private static List<String> warnings(CliResult r) {
    return r.stderr().lines().filter(l -> l.startsWith("clrscope exceptions: ")).toList();
  }

  /** LinesApp's files, but its PDB, copied into {@link #app}. */
  private Path appWithoutPdb() throws IOException {
    Path built = DotnetApps.dll("LinesApp").getParent();
    for (String f : List.of("LinesApp.dll", "LinesApp.runtimeconfig.json", "LinesApp.deps.json")) {
      Files.copy(built.resolve(f), app.resolve(f));
    }
    return app.resolve("LinesApp.dll");
  }

  private static Path builtPdb() {
    return DotnetApps.dll("LinesApp").resolveSibling("LinesApp.pdb");
  }

  @Test
  void aPdbInsideTheAssemblyGivesTheLine() throws Exception {
    Path dll = DotnetApps.dll("LinesAppEmbedded");
    assertThat(dll.resolveSibling("LinesAppEmbedded.pdb")).doesNotExist();
    CliResult r = watch(dll);
    assertLine(r);
    assertThat(warnings(r)).isEmpty();
  }

  @Test
  void aPdbBesideTheAssemblyGivesTheLine() throws Exception {
    assertThat(builtPdb()).isRegularFile();
    CliResult r = watch(DotnetApps.dll("LinesApp"));
    assertLine(r);
    assertThat(warnings(r)).isEmpty();
  }

  @Test
  void aPdbInASymbolPathDirectoryGivesTheLine() throws Exception {
    Path dll = appWithoutPdb();
    // Nowhere to be found: no line, and no warning (most framework assemblies have no PDB here).
    CliResult without = watch(dll);
    assertNoLine(without);
    assertThat(warnings(without)).isEmpty();

    Files.copy(builtPdb(), symbols.resolve("LinesApp.pdb"));
    assertLine(watch(dll, "--symbol-path", symbols.toString()));
  }

  @Test
  void aSymbolServerServesThePdbByItsKeyIntoTheCache() throws Exception {
    Path dll = appWithoutPdb();
    PdbId id = PortablePdb.parse(Files.readAllBytes(builtPdb())).id();
    String key = id.ssqpKey("LinesApp.pdb");
    assertThat(key).startsWith("linesapp.pdb/").endsWith("FFFFFFFF/linesapp.pdb");
    Path served = symbols.resolve(key);
    Files.createDirectories(served.getParent());
    Files.copy(builtPdb(), served);
    try (SymbolServerDir server = new SymbolServerDir(symbols)) {
      assertLine(watch(dll, "--symbol-server", server.url().toString(), "--allow-http"));
      assertThat(server.requests()).contains("/symbols/" + key);
    }
    Path cached = cache.resolve("clrscope/symbols").resolve(key);
    assertThat(cached).hasSameBinaryContentAs(builtPdb());
    // From the cache now, with no server.
    assertLine(watch(dll));
  }

  @Test
  void anotherBuildsPdbIsRefusedWithOneWarning() throws Exception {
    Path dll = appWithoutPdb();
    // TargetApp's PDB under LinesApp's name: another id.
    Files.copy(
        DotnetApps.dll(DotnetApps.TARGET_APP).resolveSibling("TargetApp.pdb"),
        app.resolve("LinesApp.pdb"));
    CliResult r = watch(dll);
    assertNoLine(r);
    assertThat(warnings(r))
        .singleElement()
        .asString()
        .startsWith("clrscope exceptions: no PDB for LinesApp.dll: " + app.resolve("LinesApp.pdb"))
        .contains(" is the PDB of another build (id ")
        .endsWith("): refused; its frames print without lines");
  }

  @Test
  void aDamagedPdbGivesNoLineAndOneWarning() throws Exception {
    Path dll = appWithoutPdb();
    byte[] pdb = Files.readAllBytes(builtPdb());
    Files.write(app.resolve("LinesApp.pdb"), Arrays.copyOf(pdb, pdb.length / 2));
    CliResult r = watch(dll);
    assertNoLine(r);
    assertThat(warnings(r))
        .singleElement()
        .asString()
        .startsWith(
            "clrscope exceptions: no PDB for LinesApp.dll: "
                + app.resolve("LinesApp.pdb")
                + " is damaged: ")
        .endsWith("; its frames print without lines");
  }
}
