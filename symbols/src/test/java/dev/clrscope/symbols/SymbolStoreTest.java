package dev.clrscope.symbols;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SSQP client against the JDK's HTTP server serving a symbol-store layout from a directory. */
class SymbolStoreTest {
  private static final byte[] BUILD_ID =
      HexFormat.of().parseHex("79945f51fb2612f13b7667a10a8fd29122664791");
  private static final String KEY =
      "libmscordaccore.so/elf-buildid-coreclr-79945f51fb2612f13b7667a10a8fd29122664791/libmscordaccore.so";

  @TempDir Path served;
  @TempDir Path cache;
  private ServedStore server;

  @BeforeEach
  void serve() throws IOException {
    server = new ServedStore(served);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private final List<String> notes = new ArrayList<>();

  private URI url() {
    return server.url();
  }

  /** A store on the test's plain-http server (allowed), its notes kept. */
  private SymbolStore store(Duration deadline, long maxBytes) {
    return new SymbolStore(
        cache, new SymbolStore.Server(url(), deadline, true), maxBytes, notes::add);
  }

  private void publish(String key, byte[] content) throws IOException {
    Path file = served.resolve(key);
    Files.createDirectories(file.getParent());
    Files.write(file, content);
  }

  @Test
  void theDacKeyIsTheSymbolStoresElfCoreclrKey() {
    assertThat(SymbolStore.coreclrKey("libmscordaccore.so", BUILD_ID)).isEqualTo(KEY);
    // A 16-byte build-id is padded to 20 bytes, as the store indexes it.
    assertThat(SymbolStore.coreclrKey("libmscordaccore.so", new byte[16]))
        .isEqualTo(
            "libmscordaccore.so/elf-buildid-coreclr-" + "00".repeat(20) + "/libmscordaccore.so");
  }

  @Test
  void downloadsOnceIntoTheCacheByKey() throws Exception {
    byte[] content = "a DAC, byte for byte".getBytes(StandardCharsets.UTF_8);
    publish(KEY, content);
    SymbolStore store = store(Duration.ofSeconds(10), 1 << 20);

    SymbolStore.Fetched first = store.fetch(KEY);
    SymbolStore.Fetched second = store.fetch(KEY);

    assertThat(first.downloaded()).isTrue();
    assertThat(first.file()).isEqualTo(cache.resolve(KEY));
    assertThat(Files.readAllBytes(first.file())).isEqualTo(content);
    assertThat(second.downloaded()).isFalse();
    assertThat(server.requests()).hasSize(1);
    try (Stream<Path> files = Files.walk(cache)) {
      assertThat(files.filter(Files::isRegularFile)).containsExactly(cache.resolve(KEY));
    }
  }

  @Test
  void aFileTheServerLacksNamesTheCacheAndTheUrl() {
    SymbolStore store = store(Duration.ofSeconds(10), 1 << 20);

    assertThatThrownBy(() -> store.fetch(KEY))
        .isInstanceOf(SymbolStore.NotFound.class)
        .hasMessage(
            "not in the cache "
                + cache.resolve(KEY)
                + ", and "
                + url()
                + "/"
                + KEY
                + " has no such file (HTTP 404)");
    assertThat(cache.resolve(KEY)).doesNotExist();
  }

  @Test
  void aDownloadOverTheLimitLeavesNothingBehind() throws Exception {
    publish(KEY, new byte[5000]);
    SymbolStore store = store(Duration.ofSeconds(10), 4096);

    assertThatThrownBy(() -> store.fetch(KEY))
        .isInstanceOf(SymbolStore.NotFound.class)
        .hasMessageEndingWith("offers 5000 bytes, more than the limit of 4096");
    try (Stream<Path> files = Files.walk(cache)) {
      assertThat(files.filter(Files::isRegularFile)).isEmpty();
    }
  }

  @Test
  void aServerThatNeverAnswersTimesOut() {
    String key = "hang/elf-buildid-coreclr-00/hang";
    SymbolStore store = store(Duration.ofMillis(500), 4096);

    assertThatThrownBy(() -> store.fetch(key))
        .isInstanceOf(SymbolStore.NotFound.class)
        .hasMessageEndingWith("did not answer within 0.5 s");
  }

  @Test
  void anUnreachableServerIsSaidSo() throws Exception {
    URI closed = url();
    server.close();
    SymbolStore store =
        new SymbolStore(
            cache, new SymbolStore.Server(closed, Duration.ofSeconds(2), true), 4096, notes::add);

    assertThatThrownBy(() -> store.fetch(KEY))
        .isInstanceOf(SymbolStore.NotFound.class)
        .hasMessageContaining(" could not be reached (");
  }

  @Test
  void withoutAServerOnlyTheCacheIsLookedIn() throws IOException {
    SymbolStore store = new SymbolStore(cache, null, Duration.ofSeconds(1), 4096);

    assertThatThrownBy(() -> store.fetch(KEY))
        .isInstanceOf(SymbolStore.NotFound.class)
        .hasMessage("not in the cache " + cache.resolve(KEY) + " (no symbol server)");
    // Looking made nothing in the cache.
    try (Stream<Path> files = Files.list(cache)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void plainHttpIsNotAskedUnlessAllowed() throws Exception {
    publish(KEY, "a DAC".getBytes(StandardCharsets.UTF_8));
    SymbolStore https = new SymbolStore(cache, url(), Duration.ofSeconds(10), 1 << 20);

    assertThatThrownBy(() -> https.fetch(KEY))
        .isInstanceOf(SymbolStore.NotFound.class)
        .hasMessage(
            "not in the cache "
                + cache.resolve(KEY)
                + ", and "
                + url()
                + " was not asked: it is plain http, which anyone on the way can change (give an"
                + " https URL, or allow http)");
    assertThat(server.requests()).isEmpty();
    assertThat(store(Duration.ofSeconds(10), 1 << 20).fetch(KEY).downloaded()).isTrue();
  }

  @Test
  void aTricklingServerIsGivenUpAtTheDeadlineLeavingNothing() throws Exception {
    String key = "trickle/elf-buildid-coreclr-00/trickle";
    SymbolStore store = store(Duration.ofMillis(2500), 1 << 22);

    long start = System.nanoTime();
    assertThatThrownBy(() -> store.fetch(key))
        .isInstanceOf(SymbolStore.NotFound.class)
        .hasMessageStartingWith(
            "not in the cache "
                + cache.resolve(key)
                + ", and "
                + url()
                + "/"
                + key
                + " did not"
                + " send the whole file within 2.5 s (")
        .hasMessageEndingWith(" of 1048576 bytes came)");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    try (Stream<Path> files = Files.walk(cache)) {
      assertThat(files.filter(Files::isRegularFile)).isEmpty();
    }
  }

  @Test
  void aBadFileInTheCacheIsReplacedByADownload() throws Exception {
    byte[] good = "GOOD a DAC".getBytes(StandardCharsets.UTF_8);
    publish(KEY, good);
    Path cached = cache.resolve(KEY);
    Files.createDirectories(cached.getParent());
    Files.writeString(cached, "<html>a proxy's error page</html>");
    SymbolStore.Validator valid = f -> startsWith(f, "GOOD") ? null : "is not a DAC: it is text";

    SymbolStore.Fetched f = store(Duration.ofSeconds(10), 1 << 20).fetch(KEY, valid);

    assertThat(f).isEqualTo(new SymbolStore.Fetched(cached, true));
    assertThat(Files.readAllBytes(cached)).isEqualTo(good);
    assertThat(notes)
        .containsExactly(
            "the cached " + cached + " is not a DAC: it is text: removed; downloading it again");
  }

  @Test
  void anInvalidDownloadIsNeverPutInTheCache() throws Exception {
    publish(KEY, "<html>sorry</html>".getBytes(StandardCharsets.UTF_8));
    SymbolStore.Validator valid = f -> startsWith(f, "GOOD") ? null : "is not a DAC: it is text";

    assertThatThrownBy(() -> store(Duration.ofSeconds(10), 1 << 20).fetch(KEY, valid))
        .isInstanceOfSatisfying(
            SymbolStore.NotFound.class, e -> assertThat(e.fileRefused()).isTrue())
        .hasMessageEndingWith(KEY + " sent a file that is not a DAC: it is text");
    try (Stream<Path> files = Files.walk(cache)) {
      assertThat(files.filter(Files::isRegularFile)).isEmpty();
    }
  }

  @Test
  void aLinkInTheCacheIsNotFollowedButRemovedAndDownloadedAgain() throws Exception {
    Path elsewhere = Files.writeString(served.resolve("planted.so"), "planted");
    Path cached = cache.resolve(KEY);
    Files.createDirectories(cached.getParent());
    Files.createSymbolicLink(cached, elsewhere);
    publish(KEY, "GOOD".getBytes(StandardCharsets.UTF_8));
    List<Path> validated = new ArrayList<>();

    SymbolStore.Fetched f =
        store(Duration.ofSeconds(10), 1 << 20)
            .fetch(
                KEY,
                file -> {
                  validated.add(file);
                  return null;
                });

    assertThat(f.downloaded()).isTrue();
    assertThat(Files.isSymbolicLink(cached)).isFalse();
    assertThat(Files.readString(cached)).isEqualTo("GOOD");
    assertThat(Files.readString(elsewhere)).isEqualTo("planted");
    // Only the download was read: the link never was.
    assertThat(validated).hasSize(1).noneMatch(p -> p.equals(cached));
    assertThat(notes)
        .containsExactly(
            "the cached "
                + cached
                + " is a symbolic link (to "
                + elsewhere
                + "), not followed or read: removed; downloading it again");
  }

  @Test
  void aCacheOthersMayWriteIsNotUsedAndDownloadsGoToAPrivateDirectory() throws Exception {
    Path shared = Files.createDirectories(cache.resolve("shared"));
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path dir = shared.resolve("clrscope").resolve("symbols");
    Path planted = dir.resolve(KEY);
    Files.createDirectories(planted.getParent());
    Files.writeString(planted, "planted");
    publish(KEY, "GOOD".getBytes(StandardCharsets.UTF_8));
    SymbolStore store =
        new SymbolStore(
            dir, new SymbolStore.Server(url(), Duration.ofSeconds(10), true), 4096, notes::add);

    SymbolStore.Fetched f = store.fetch(KEY);

    assertThat(f.downloaded()).isTrue();
    assertThat(f.file()).isNotEqualTo(planted).endsWith(Path.of(KEY));
    assertThat(Files.readString(f.file())).isEqualTo("GOOD");
    assertThat(Files.getPosixFilePermissions(f.file().getParent().getParent().getParent()))
        .isEqualTo(PosixFilePermissions.fromString("rwx------"));
    assertThat(Files.readString(planted)).isEqualTo("planted");
    assertThat(notes)
        .containsExactly(
            "the symbol cache "
                + dir
                + " is not used: "
                + shared
                + " is writable by everyone (owner root, mode 0777); files are downloaded for this"
                + " run only (make the cache yours and writable by you alone, or set"
                + " XDG_CACHE_HOME)");
  }

  @Test
  void theCacheIsMadeOwnerOnly() throws Exception {
    publish(KEY, "GOOD".getBytes(StandardCharsets.UTF_8));
    Path dir = cache.resolve("new").resolve("symbols");
    new SymbolStore(
            dir, new SymbolStore.Server(url(), Duration.ofSeconds(10), true), 4096, notes::add)
        .fetch(KEY);
    for (Path p :
        List.of(
            cache.resolve("new"),
            dir,
            dir.resolve(KEY).getParent(),
            dir.resolve(KEY).getParent().getParent())) {
      assertThat(Files.getPosixFilePermissions(p))
          .as("%s", p)
          .isEqualTo(PosixFilePermissions.fromString("rwx------"));
    }
    assertThat(notes).isEmpty();
  }

  private static boolean startsWith(Path file, String text) {
    try {
      return Files.readString(file).startsWith(text);
    } catch (IOException e) {
      return false;
    }
  }

  @Test
  void keysCannotLeaveTheCache() {
    SymbolStore store = store(Duration.ofSeconds(1), 4096);

    for (String bad :
        new String[] {"../x/y", "a/../b", "a/b", "/etc/passwd/x", "a/b/c/d", "a/b c/d"}) {
      assertThatThrownBy(() -> store.cachePath(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
