package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} used carelessly or against its will: two artifact requests for one process at once,
 * a full disk, token and rules files that are not what they seem (open to others, another user's, a
 * FIFO, {@code /dev/zero}, nested 100,000 deep), an artifact directory of another user's, and a
 * rule on a counter the process never publishes. Each serve watches only its own app ({@code -p}).
 */
class ServeHardeningTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final Pattern SERVING = Pattern.compile("Serving http://127\\.0\\.0\\.1:(\\d+)/");
  private static final String TOKEN = ServeArtifactsTest.TOKEN;

  /** A pid that is no .NET process (this JVM's): serve then watches nothing. */
  private static final String NOT_DOTNET = Long.toString(ProcessHandle.current().pid());

  private static Path token(Path dir) throws Exception {
    Path tokenFile = dir.resolve("token");
    Files.writeString(tokenFile, TOKEN + "\n");
    Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
    return tokenFile;
  }

  /** serve as {@link ServeArtifactsTest} starts it, with its token. */
  private static RunningCli serve(Path dir, long pid, String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of("--token-file", "token"));
    args.addAll(List.of(extra));
    return ServeArtifactsTest.serve(dir, pid, args.toArray(String[]::new));
  }

  private static String base(RunningCli serve) {
    return "http://127.0.0.1:" + serve.awaitStderr(SERVING, TIMEOUT);
  }

  private static CompletableFuture<HttpResponse<byte[]>> post(String url) {
    return HTTP.sendAsync(
        HttpRequest.newBuilder(URI.create(url))
            .timeout(TIMEOUT)
            .header("Authorization", "Bearer " + TOKEN)
            .POST(HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private static HttpResponse<byte[]> done(CompletableFuture<HttpResponse<byte[]>> r)
      throws Exception {
    return r.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
  }

  private static String error(HttpResponse<byte[]> r) throws Exception {
    return JSON.readTree(new String(r.body(), StandardCharsets.UTF_8)).path("error").asText();
  }

  private static List<String> names(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void twoTracesOfOneProcessAtOnceAreBothKeptUnderTheirOwnNamesWithTheirMaps(@TempDir Path dir)
      throws Exception {
    Path art = dir.resolve("art");
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli serve = serve(dir, app.pid(), "--artifacts", "art")) {
      String url = base(serve) + "/trace?pid=" + app.pid() + "&duration=2s&profile=dotnet-common";
      CompletableFuture<HttpResponse<byte[]>> first = post(url);
      CompletableFuture<HttpResponse<byte[]>> second = post(url);
      HttpResponse<byte[]> a = done(first);
      HttpResponse<byte[]> b = done(second);
      assertThat(a.statusCode()).as(new String(a.body(), StandardCharsets.UTF_8)).isEqualTo(200);
      assertThat(b.statusCode()).as(new String(b.body(), StandardCharsets.UTF_8)).isEqualTo(200);
      Path fileA = Path.of(a.headers().firstValue("X-Clrscope-Artifact").orElseThrow());
      Path fileB = Path.of(b.headers().firstValue("X-Clrscope-Artifact").orElseThrow());
      assertThat(fileA).isNotEqualTo(fileB);
      assertThat(Files.readAllBytes(fileA)).isEqualTo(a.body());
      assertThat(Files.readAllBytes(fileB)).isEqualTo(b.body());
      // Each with the maps sidecar trace collect writes, 0600 as every artifact.
      assertThat(names(art))
          .containsExactlyInAnyOrder(
              fileA.getFileName().toString(),
              fileA.getFileName() + ".maps",
              fileB.getFileName().toString(),
              fileB.getFileName() + ".maps");
      assertThat(Files.readString(Path.of(fileA + ".maps"))).contains("libcoreclr.so");
      assertThat(
              PosixFilePermissions.toString(
                  Files.getPosixFilePermissions(Path.of(fileB + ".maps"))))
          .isEqualTo("rw-------");

      // Two heap walks of one process at once: the second is told to wait, the first is whole.
      String gcdump = base(serve) + "/gcdump?pid=" + app.pid();
      CompletableFuture<HttpResponse<byte[]>> g1 = post(gcdump);
      await()
          .atMost(TIMEOUT)
          .until(() -> serve.stderr().contains("gcdump of process " + app.pid() + ": collecting"));
      HttpResponse<byte[]> g2 = done(post(gcdump));
      assertThat(g2.statusCode()).isEqualTo(429);
      assertThat(error(g2))
          .isEqualTo(
              "a gcdump of process "
                  + app.pid()
                  + " is being collected already; ask again when it is done");
      assertThat(done(g1).statusCode()).isEqualTo(200);
      serve.signal("TERM");
      assertThat(serve.await(TIMEOUT).exitCode()).isZero();
    }
  }

  @Test
  void aDumpOnAFullDiskIsA507SayingSoOnce(@TempDir Path dir) throws Exception {
    Path full = Files.createDirectory(dir.resolve("full"));
    Process mount =
        new ProcessBuilder(
                "mount", "-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs", full.toString())
            .inheritIO()
            .start();
    assertThat(mount.waitFor()).as("mounting a 2 MB tmpfs (the suite runs as root)").isZero();
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli serve = serve(dir, app.pid(), "--artifacts", full.toString())) {
      HttpResponse<byte[]> r = done(post(base(serve) + "/dump?pid=" + app.pid() + "&type=full"));
      assertThat(r.statusCode()).isEqualTo(507);
      assertThat(error(r))
          .startsWith("no space left on the device of " + full + " (")
          .endsWith(
              " bytes free): free some, or start serve with --artifacts on another file system")
          .doesNotContain("ptrace");
      await().atMost(TIMEOUT).until(() -> serve.stderr().contains(": failed: "));
      assertThat(serve.stderr().lines().filter(l -> l.contains("no space left")).count())
          .isEqualTo(1);
      assertThat(names(full)).isEmpty();
      serve.signal("TERM");
      assertThat(serve.await(TIMEOUT).exitCode()).isZero();
    } finally {
      new ProcessBuilder("umount", full.toString()).inheritIO().start().waitFor();
    }
  }

  @Test
  void tokenFilesOthersCanReadOrUseAreRefused(@TempDir Path dir) throws Exception {
    Path token = token(dir);
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-rw-rw-"));
    CliResult open = start(dir, "--listen", "0.0.0.0:0", "--token-file", token.toString());
    assertThat(open.exitCode()).as("%s", open).isEqualTo(1);
    assertThat(open.stderr().strip())
        .isEqualTo(
            "clrscope serve: the token file "
                + token
                + " is open to others (rw-rw-rw-): anyone on this host could read the token;"
                + " chmod 600 it");
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
    Files.setAttribute(token, "unix:uid", 65534);
    CliResult theirs = start(dir, "--token-file", token.toString());
    assertThat(theirs.exitCode()).as("%s", theirs).isEqualTo(1);
    assertThat(theirs.stderr().strip())
        .isEqualTo(
            "clrscope serve: the token file "
                + token
                + " belongs to uid 65534, not to serve's user (uid 0): that user could change the"
                + " token; use a file of your own");
  }

  @Test
  void tokenAndRulesFilesThatAreNotRegularFilesOrTooBigAreOneLine(@TempDir Path dir)
      throws Exception {
    Path fifo = dir.resolve("fifo");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
    CliResult tokenFifo = start(dir, "--token-file", fifo.toString());
    assertThat(tokenFifo.exitCode()).as("%s", tokenFifo).isEqualTo(1);
    assertThat(tokenFifo.stderr().strip())
        .isEqualTo(
            "clrscope serve: cannot read the token file "
                + fifo
                + ": it is a FIFO, not a regular file");
    CliResult tokenZero = start(dir, "--token-file", "/dev/zero");
    assertThat(tokenZero.stderr().strip())
        .isEqualTo(
            "clrscope serve: cannot read the token file /dev/zero: it is a character device, not"
                + " a regular file");
    Path big = dir.resolve("big");
    Files.write(big, new byte[5000]);
    Files.setPosixFilePermissions(big, PosixFilePermissions.fromString("rw-------"));
    CliResult tokenBig = start(dir, "--token-file", big.toString());
    assertThat(tokenBig.stderr().strip())
        .isEqualTo(
            "clrscope serve: cannot read the token file "
                + big
                + ": it holds 5,000 bytes, more than the 4,096 this file may hold");

    CliResult rulesFifo = start(dir, "--rules", fifo.toString());
    assertThat(rulesFifo.exitCode()).as("%s", rulesFifo).isEqualTo(2);
    assertThat(rulesFifo.stderr().lines().findFirst().orElseThrow())
        .isEqualTo(
            "clrscope serve: --rules cannot read the rules file "
                + fifo
                + ": it is a FIFO, not a regular file");
    CliResult rulesZero = start(dir, "--rules", "/dev/zero");
    assertThat(rulesZero.exitCode()).isEqualTo(2);
    assertThat(rulesZero.stderr().lines().findFirst().orElseThrow())
        .endsWith("it is a character device, not a regular file");
    Path deep = dir.resolve("deep.json");
    Files.writeString(deep, "{\"rules\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}");
    CliResult rulesDeep = start(dir, "--rules", deep.toString());
    assertThat(rulesDeep.exitCode()).as("%s", rulesDeep).isEqualTo(2);
    assertThat(rulesDeep.stderr().lines().findFirst().orElseThrow())
        .isEqualTo(
            "clrscope serve: --rules "
                + deep
                + ": nested deeper than 16 levels or a value too long, at line 1 (a rules file is"
                + " {\"rules\": [ {...}, ... ]})");
  }

  @Test
  void anArtifactDirectoryOfAnotherUserIsRefused(@TempDir Path dir) throws Exception {
    Path theirs = Files.createDirectory(dir.resolve("theirs"));
    Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rwx------"));
    Files.setAttribute(theirs, "unix:uid", 65534);
    CliResult r = start(dir, "--artifacts", theirs.toString());
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    assertThat(r.stderr().strip())
        .isEqualTo(
            "clrscope serve: cannot use the artifact directory "
                + theirs
                + ": "
                + theirs
                + " belongs to uid 65534, not to serve's user (uid 0); artifacts hold the"
                + " processes' memory: name a directory of your own");
  }

  /**
   * A rule on a counter the process never publishes says so once (EventCounters' cpu-usage, which a
   * System.Runtime session of .NET 9+ does not carry: the Meter's instruments come instead), and
   * docs/serve.md's example rule, on the Meter's dotnet.process.memory.working_set, fires.
   */
  @Test
  void aRuleOnACounterNeverPublishedSaysSoOnceAndTheDocsExampleFires(@TempDir Path dir)
      throws Exception {
    Path rules = dir.resolve("rules.json");
    Files.writeString(
        rules,
        "{\"rules\": [\n"
            + "  {\"name\": \"cpu\", \"counter\": \"cpu-usage\", \"above\": 80, \"for\": \"30s\",\n"
            + "   \"collect\": \"trace\", \"duration\": \"20s\", \"profile\": \"cpu-sampling\"},\n"
            + "  {\"name\": \"memory\", \"counter\": \"dotnet.process.memory.working_set\",\n"
            + "   \"above\": 1000, \"collect\": \"gcdump\", \"into\": \""
            + dir.resolve("out")
            + "\"}]}\n");
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli serve = serve(dir, app.pid(), "--rules", rules.toString())) {
      String unseen =
          "clrscope serve: rule cpu cannot fire for process "
              + app.pid()
              + " (TargetApp): it has not published cpu-usage of System.Runtime in 3 refreshes"
              + " (`clrscope counters list -p "
              + app.pid()
              + "` shows what it publishes)";
      await().atMost(TIMEOUT).until(() -> serve.stderr().contains(unseen));
      await()
          .atMost(TIMEOUT)
          .until(() -> serve.stderr().contains("rule memory: wrote " + dir.resolve("out")));
      // Once: not again at later refreshes.
      await()
          .during(Duration.ofSeconds(4))
          .atMost(Duration.ofSeconds(10))
          .until(() -> serve.stderr().split(Pattern.quote(unseen), -1).length == 2);
      assertThat(serve.stderr()).doesNotContain("rule memory cannot fire");
      serve.signal("TERM");
      assertThat(serve.await(TIMEOUT).exitCode()).isZero();
    }
  }

  /** serve with {@code extra}, watching nothing, for 5 s at most: for what it refuses at start. */
  private static CliResult start(Path dir, String... extra) {
    List<String> args = new ArrayList<>(List.of("serve", "-p", NOT_DOTNET, "--duration", "5s"));
    if (!List.of(extra).contains("--listen")) {
      args.addAll(List.of("--listen", "127.0.0.1:0"));
    }
    args.addAll(List.of(extra));
    return Clrscope.run(TIMEOUT, Map.of(), dir, args.toArray(new String[0]));
  }
}
