package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.clrscope.dac.source.ElfImage;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * clrscope loads only a DAC it can trust, and says why it passed one over (issue 31, item 4), on
 * the real DAC through the real CLI: a library planted beside another user's runtime is never
 * loaded by root; a link planted in a cache others may write is not followed; a plain-http symbol
 * server needs {@code --allow-http}; a server that trickles is given up at the deadline with no
 * partial file left; a bad file in the cache is replaced by a good download; a .NET 8 DAC given for
 * a .NET 10 core and a text file given as the DAC are refused before loading, with one line. A
 * planted library is a real {@code .so} built here with gcc whose constructor writes a marker file.
 */
class DacTrustTest {
  private static final Duration TIMEOUT = AnalyzeCli.TIMEOUT;
  private static final String RUNTIME_PARENT = "/usr/share/dotnet/shared/";
  private static final String MOVED_PARENT = "/usr/share/dotneX/shared/";

  /** The user whose app the planted library sits beside: made by the test (it runs as root). */
  private static final String PLANTER = "clrscope-planter";

  @TempDir static Path shared;
  private static Path core;
  private static Path movedCore;
  private static String itemType;
  private static String key;
  private static Path runtimeDir;

  @TempDir Path dir;
  private SymbolServerDir server;

  @BeforeAll
  static void dump() throws IOException {
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP)) {
      itemType = app.send("facts 100").get("itemType").asText();
      core = shared.resolve("app.core");
      DacCoreDumpTest.dump(app.pid(), "heap", core);
    }
    byte[] bytes = Files.readAllBytes(core);
    assertThat(DacDownloadTest.replaceInNotes(bytes, RUNTIME_PARENT, MOVED_PARENT))
        .as("runtime paths in the core's notes")
        .isPositive();
    movedCore = Files.write(shared.resolve("moved.core"), bytes);
    runtimeDir = installedRuntime();
    key =
        "libmscordaccore.so/elf-buildid-coreclr-"
            + ElfImage.hex(ElfImage.buildIdOfFile(runtimeDir.resolve("libcoreclr.so")))
            + "/libmscordaccore.so";
  }

  @AfterAll
  static void done() {}

  @BeforeEach
  void serve() throws IOException {
    Path store = dir.resolve("store");
    Files.createDirectories(store.resolve(key).getParent());
    Files.copy(runtimeDir.resolve("libmscordaccore.so"), store.resolve(key));
    server = new SymbolServerDir(store);
  }

  @org.junit.jupiter.api.AfterEach
  void stop() {
    server.close();
  }

  // --- the runtime directory -------------------------------------------------------------------

  @Test
  void aDacPlantedBesideAnotherUsersRuntimeIsNeverLoadedByRoot() throws Exception {
    assertThat(System.getProperty("user.name")).as("this test switches users").isEqualTo("root");
    int uid = planter();
    // Another user's copy of the runtime (as a self-contained app carries one), the DAC in it
    // replaced by a library that passes every check but the owner's: it exports the DAC's entry
    // point and carries the runtime's own version text.
    Path top = Files.createDirectories(dir.resolve("srv"));
    for (Path p = top; !p.equals(dir.getParent()); p = p.getParent()) {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    Path home = top.resolve(PLANTER);
    Path dotnet = home.resolve("dotnet");
    String version = runtimeDir.getFileName().toString();
    Path rt = dotnet.resolve("shared/Microsoft.NETCore.App/" + version);
    Path dotnetRoot = runtimeDir.getParent().getParent().getParent();
    Files.createDirectories(rt.getParent());
    run("cp", "-a", dotnetRoot.resolve("dotnet").toString(), dotnet.toString());
    run("cp", "-a", dotnetRoot.resolve("host").toString(), dotnet.resolve("host").toString());
    run("cp", "-a", runtimeDir.toString(), rt.toString());
    run(
        "cp",
        "-a",
        DotnetApps.dll(DotnetApps.TARGET_APP).getParent().toString(),
        home.resolve("app").toString());
    Path marker = dir.resolve("planted-ran");
    plant(rt.resolve("libmscordaccore.so"), marker);
    run("chown", "-R", uid + ":" + uid, home.toString());
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));

    try (TargetProcess app =
        TargetProcess.startCommand(
            "TargetApp as " + PLANTER,
            List.of(
                "setpriv",
                "--reuid=" + uid,
                "--regid=" + uid,
                "--clear-groups",
                dotnet.resolve("dotnet").toString(),
                home.resolve("app/TargetApp.dll").toString()),
            Map.of("HOME", home.toString(), "DOTNET_ROOT", dotnet.toString()))) {
      app.send("facts 100");
      String pid = Long.toString(app.pid());
      assertThat(Files.readString(Path.of("/proc", pid, "maps")))
          .contains(rt.resolve("libcoreclr.so").toString());
      String passedOver =
          "passed over the DAC /proc/"
              + pid
              + "/root"
              + rt.resolve("libmscordaccore.so")
              + " beside the target's runtime: /proc/"
              + pid
              + "/root"
              + home
              + " belongs to "
              + PLANTER
              + " (uid "
              + uid
              + ", mode 0755), not to root or to you; trying the symbol cache and the symbol"
              + " server";

      CliResult r =
          cli(
              "analyze",
              "-p",
              pid,
              "-c",
              "dumpheap -stat -type " + itemType,
              "--format",
              "json",
              "--symbol-server",
              server.url().toString(),
              "--allow-http");
      assertThat(r.exitCode()).as("%s", r).isZero();
      assertThat(marker).as("the planted library's constructor never ran").doesNotExist();
      assertThat(r.stderr().lines().toList())
          .as("%s", r)
          .containsExactly(
              "clrscope analyze: " + passedOver,
              "Process " + pid + " was paused for " + pausedFor(r) + ".");
      assertThat(items(r)).isEqualTo(100);
      // From the symbol server, into the (owner-only) cache.
      assertThat(server.requests()).containsExactly("/symbols/" + key);
      assertThat(cache().resolve(key)).hasSameBinaryContentAs(runtimeDir.resolve(DAC));
      assertThat(Files.getPosixFilePermissions(cache()))
          .isEqualTo(PosixFilePermissions.fromString("rwx------"));

      // dump-heap --exact reads the same process through the DAC the same way, from the cache.
      CliResult exact =
          cli(
              "dump-heap",
              "report",
              "-p",
              pid,
              "--exact",
              "--format",
              "json",
              "--top",
              "0",
              "--symbol-server",
              server.url().toString(),
              "--allow-http");
      assertThat(exact.exitCode()).as("%s", exact).isZero();
      assertThat(marker).doesNotExist();
      assertThat(exact.stderr().lines().toList())
          .as("%s", exact)
          .first()
          .isEqualTo("clrscope dump-heap report: " + passedOver);
      assertThat(count(exact.stdoutJson().get("types"), itemType)).isEqualTo(100);
      assertThat(server.requests()).hasSize(1);
      assertThat(app.send("ping").get("event").asText()).isEqualTo("pong");
    }

    // The planted library is a working one: given by the user with --dac (their choice, as
    // documented), it is loaded and its constructor runs. This is what root was kept from above.
    CliResult given =
        cli("analyze", core.toString(), "--dac", rt.resolve(DAC).toString(), "-c", "exit");
    assertThat(given.exitCode()).as("%s", given).isEqualTo(1);
    assertThat(marker).exists();
  }

  // --- the cache -------------------------------------------------------------------------------

  @Test
  void aLinkPlantedInACacheOthersMayWriteIsNotFollowed() throws Exception {
    Path open = Files.createDirectories(dir.resolve("shared-cache"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path marker = dir.resolve("planted-ran");
    Path planted = plant(dir.resolve("evil/libmscordaccore.so"), marker);
    Path link = open.resolve("clrscope/symbols").resolve(key);
    Files.createDirectories(link.getParent());
    Files.createSymbolicLink(link, planted);
    Path tmp = Files.createDirectories(dir.resolve("tmp"));

    CliResult r =
        Clrscope.run(
            TIMEOUT,
            Map.of(
                "XDG_CACHE_HOME", open.toString(), "CLRSCOPE_JAVA_OPTS", "-Djava.io.tmpdir=" + tmp),
            Clrscope.root(),
            "analyze",
            movedCore.toString(),
            "-c",
            "dumpheap -stat -type " + itemType,
            "--format",
            "json",
            "--symbol-server",
            server.url().toString(),
            "--allow-http");

    assertThat(r.exitCode()).as("%s", r).isZero();
    assertThat(marker).doesNotExist();
    assertThat(r.stderr().lines().toList())
        .as("%s", r)
        .containsExactly(
            "clrscope analyze: the symbol cache "
                + open.resolve("clrscope/symbols")
                + " is not used: "
                + open
                + " is writable by everyone (owner root, mode 0777); files are downloaded for this"
                + " run only (make the cache yours and writable by you alone, or set"
                + " XDG_CACHE_HOME)");
    assertThat(items(r)).isEqualTo(100);
    assertThat(Files.isSymbolicLink(link)).isTrue();
    // The run's own download directory is gone with the run.
    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void aLinkInTheUsersOwnCacheIsRemovedNotFollowedAndTheDacDownloaded() throws Exception {
    Path marker = dir.resolve("planted-ran");
    Path planted = plant(dir.resolve("evil/libmscordaccore.so"), marker);
    Path link = cache().resolve(key);
    Files.createDirectories(link.getParent());
    Files.createSymbolicLink(link, planted);

    CliResult r = analyzeMoved("--symbol-server", server.url().toString(), "--allow-http");

    assertThat(r.exitCode()).as("%s", r).isZero();
    assertThat(marker).doesNotExist();
    assertThat(r.stderr().lines().toList())
        .containsExactly(
            "clrscope analyze: the cached "
                + link
                + " is a symbolic link (to "
                + planted
                + "), not followed or read: removed; downloading it again");
    assertThat(Files.isSymbolicLink(link)).isFalse();
    assertThat(link).hasSameBinaryContentAs(runtimeDir.resolve(DAC));
  }

  @Test
  void aBadFileInTheCacheIsReplacedByAGoodDownload() throws Exception {
    Path bad = cache().resolve(key);
    Files.createDirectories(bad.getParent());
    Files.writeString(bad, "<html><body>502 Bad Gateway</body></html>\n");

    CliResult r = analyzeMoved("--symbol-server", server.url().toString(), "--allow-http");

    assertThat(r.exitCode()).as("%s", r).isZero();
    assertThat(r.stderr().lines().toList())
        .containsExactly(
            "clrscope analyze: the cached "
                + bad
                + " is not a DAC: it is not an ELF file: removed; downloading it again");
    assertThat(items(r)).isEqualTo(100);
    assertThat(bad).hasSameBinaryContentAs(runtimeDir.resolve(DAC));
    // The next run takes it from the cache, asking no server.
    assertThat(analyzeMoved("--symbol-server", "none").exitCode()).isZero();
    assertThat(server.requests()).hasSize(1);
  }

  // --- the symbol server -----------------------------------------------------------------------

  @Test
  void aPlainHttpServerIsRefusedUnlessAllowed() {
    String url = server.url().toString();
    String refused =
        "--symbol-server "
            + url
            + " is plain http, which anyone on the way can change, and the DAC is code clrscope"
            + " runs: give an https URL, or add --allow-http to accept it";

    CliResult r = analyzeMoved("--symbol-server", url);
    assertThat(r.exitCode()).as("%s", r).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr().lines().toList()).first().isEqualTo("clrscope analyze: " + refused);
    CliResult heap = cli("dump-heap", "report", movedCore.toString(), "--symbol-server", url);
    assertThat(heap.exitCode()).as("%s", heap).isEqualTo(2);
    assertThat(heap.stderr().lines().toList())
        .first()
        .isEqualTo("clrscope dump-heap report: " + refused);
    assertThat(server.requests()).isEmpty();

    CliResult allowed = analyzeMoved("--symbol-server", url, "--allow-http");
    assertThat(allowed.exitCode()).as("%s", allowed).isZero();
    assertThat(allowed.stderr()).isEmpty();
    assertThat(items(allowed)).isEqualTo(100);
    assertThat(server.requests()).containsExactly("/symbols/" + key);
  }

  @Test
  void aTricklingServerIsGivenUpAtTheDeadlineLeavingNoPartialFile() throws Exception {
    CountDownLatch stop = new CountDownLatch(1);
    HttpServer trickle =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    trickle.setExecutor(Executors.newCachedThreadPool());
    trickle.createContext(
        "/symbols/",
        exchange -> {
          // All of the headers at once, then a byte a second of a DAC-sized file.
          exchange.sendResponseHeaders(200, 10 << 20);
          try (OutputStream out = exchange.getResponseBody()) {
            while (!stop.await(1, TimeUnit.SECONDS)) {
              out.write(0x7f);
              out.flush();
            }
          } catch (IOException | InterruptedException e) {
            // The client gave up, or the test ended.
          }
        });
    trickle.start();
    URI url = URI.create("http://127.0.0.1:" + trickle.getAddress().getPort() + "/symbols");
    try {
      long start = System.nanoTime();
      CliResult r =
          analyzeMoved(
              "--symbol-server", url.toString(), "--allow-http", "--download-timeout", "3s");
      Duration took = Duration.ofNanos(System.nanoTime() - start);

      assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
      assertThat(r.stdout()).isEmpty();
      assertThat(r.stderr().lines().toList()).as("%s", r).hasSize(1);
      assertThat(r.stderr().strip())
          .startsWith("clrscope analyze: no DAC for runtime build-id ")
          .contains(
              "; not in the cache "
                  + cache().resolve(key)
                  + ", and "
                  + url
                  + "/"
                  + key
                  + " did not send the whole file within 3 s (")
          .containsPattern(" \\([0-9] of 10485760 bytes came\\); give --dac PATH ");
      assertThat(took).isGreaterThan(Duration.ofSeconds(3)).isLessThan(Duration.ofSeconds(60));
      try (Stream<Path> files = Files.walk(cache())) {
        assertThat(files.filter(p -> !Files.isDirectory(p))).as("no partial file").isEmpty();
      }
    } finally {
      stop.countDown();
      trickle.stop(0);
    }
  }

  // --- what is given with --dac ----------------------------------------------------------------

  @Test
  void aNet8DacGivenForANet10CoreIsRefusedBeforeLoadingNamingBothVersions() throws Exception {
    Path net8 = Net8RuntimePack.dac();
    String expected =
        "the DAC "
            + net8
            + " given with --dac is the DAC of runtime 8.0.3126.42015 (commit 1219a42122cf), not"
            + " of the target's runtime "
            + describe(ElfImage.versionInFile(runtimeDir.resolve("libcoreclr.so")))
            + ": give the libmscordaccore.so of the target's runtime build, or leave --dac out"
            + " to have it found";

    CliResult r = cli("analyze", core.toString(), "--dac", net8.toString(), "-c", "threads");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr().lines().toList()).containsExactly("clrscope analyze: " + expected);

    CliResult heap = cli("dump-heap", "report", core.toString(), "--dac", net8.toString());
    assertThat(heap.exitCode()).as("%s", heap).isEqualTo(1);
    assertThat(heap.stderr().lines().toList())
        .containsExactly("clrscope dump-heap report: " + expected);
  }

  @Test
  void aTextFileGivenAsTheDacIsNamedNotADac() throws Exception {
    Path text = Files.writeString(dir.resolve("libmscordaccore.so"), "see the wiki\n");
    CliResult r = cli("analyze", core.toString(), "--dac", text.toString(), "-c", "threads");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    assertThat(r.stderr().lines().toList())
        .containsExactly(
            "clrscope analyze: the DAC "
                + text
                + " given with --dac is not a DAC: it is not an ELF file: give the"
                + " libmscordaccore.so of the target's runtime build, or leave --dac out to have"
                + " it found");
    // dump-heap takes --dac as analyze does: the right one reads the core.
    CliResult right =
        cli(
            "dump-heap",
            "report",
            movedCore.toString(),
            "--dac",
            runtimeDir.resolve(DAC).toString(),
            "--format",
            "json",
            "--top",
            "0");
    assertThat(right.exitCode()).as("%s", right).isZero();
    assertThat(count(right.stdoutJson().get("types"), itemType)).isEqualTo(100);
  }

  // --- helpers ---------------------------------------------------------------------------------

  private static final String DAC = "libmscordaccore.so";

  /** The test's own symbol cache, as $XDG_CACHE_HOME/clrscope/symbols. */
  private Path cache() {
    return dir.resolve("xdg/clrscope/symbols");
  }

  private CliResult cli(String... args) {
    Map<String, String> env = new HashMap<>();
    env.put("XDG_CACHE_HOME", dir.resolve("xdg").toString());
    return Clrscope.run(TIMEOUT, env, Clrscope.root(), args);
  }

  /** {@code analyze} of the core whose runtime directory is not on this machine. */
  private CliResult analyzeMoved(String... options) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "analyze",
                movedCore.toString(),
                "-c",
                "dumpheap -stat -type " + itemType,
                "--format",
                "json"));
    args.addAll(Arrays.asList(options));
    return cli(args.toArray(String[]::new));
  }

  /** How many objects of the item type {@code dumpheap -stat -type} counted. */
  private static long items(CliResult r) {
    return count(AnalyzeCli.documents(r).get(0).get("types"), itemType);
  }

  private static long count(JsonNode types, String type) {
    for (JsonNode t : types) {
      if (t.get("type").asText().equals(type)) {
        return t.get("count").asLong();
      }
    }
    return -1;
  }

  private static String pausedFor(CliResult r) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("was paused for ([0-9.]+ m?s)\\.").matcher(r.stderr());
    assertThat(m.find()).as("%s", r).isTrue();
    return m.group(1);
  }

  private static String describe(String version) {
    int at = version.indexOf("@Commit:");
    return version.substring(0, at).strip()
        + " (commit "
        + version.substring(at + 8).strip().substring(0, 12)
        + ")";
  }

  /**
   * A real shared library at {@code at} that passes every check of a DAC but its owner's: it
   * exports CLRDataCreateInstance and carries the installed runtime's version text; its constructor
   * writes {@code marker}.
   */
  private Path plant(Path at, Path marker) throws Exception {
    Files.createDirectories(at.getParent());
    String version = ElfImage.versionInFile(runtimeDir.resolve("libcoreclr.so"));
    Path source = dir.resolve("planted.c");
    Files.writeString(
        source,
        "#include <fcntl.h>\n"
            + "#include <unistd.h>\n"
            + "char planted_version[] = \"@(#)Version "
            + version
            + "\";\n"
            + "__attribute__((constructor)) static void planted(void) {\n"
            + "  int fd = open(\""
            + marker
            + "\", O_CREAT | O_WRONLY, 0644);\n"
            + "  if (fd >= 0) { write(fd, \"ran\\n\", 4); close(fd); }\n"
            + "}\n"
            + "int CLRDataCreateInstance(void *iid, void *target, void **out) { return 1; }\n",
        StandardCharsets.US_ASCII);
    Files.deleteIfExists(at);
    run("gcc", "-shared", "-fPIC", "-o", at.toString(), source.toString());
    return at;
  }

  /** The uid of {@link #PLANTER}, made when missing. */
  private static int planter() throws Exception {
    Process id = new ProcessBuilder("id", "-u", PLANTER).redirectErrorStream(true).start();
    String out = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (id.waitFor() != 0) {
      run("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", PLANTER);
      return planter();
    }
    return Integer.parseInt(out);
  }

  private static void run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("%s: %s", String.join(" ", command), out).isZero();
  }

  /**
   * The installed runtime the test apps run on: {@code <dotnet>/shared/Microsoft.NETCore.App/V}.
   */
  private static Path installedRuntime() throws IOException {
    Path fx = DotnetApps.dotnetRealPath().getParent().resolve("shared/Microsoft.NETCore.App");
    try (Stream<Path> versions = Files.list(fx)) {
      return versions
          .filter(p -> Files.isRegularFile(p.resolve("libmscordaccore.so")))
          .max(java.util.Comparator.comparing(p -> p.getFileName().toString()))
          .orElseThrow(() -> new AssertionError("no runtime with a DAC in " + fx));
    }
  }
}
