package dev.clrscope.symbols;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
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

  private URI url() {
    return server.url();
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
    SymbolStore store = new SymbolStore(cache, url(), Duration.ofSeconds(10), 1 << 20);

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
    SymbolStore store = new SymbolStore(cache, url(), Duration.ofSeconds(10), 1 << 20);

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
    SymbolStore store = new SymbolStore(cache, url(), Duration.ofSeconds(10), 4096);

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
    SymbolStore store = new SymbolStore(cache, url(), Duration.ofMillis(500), 4096);

    assertThatThrownBy(() -> store.fetch(key))
        .isInstanceOf(SymbolStore.NotFound.class)
        .hasMessageEndingWith("did not answer within 0.5 s");
  }

  @Test
  void anUnreachableServerIsSaidSo() throws Exception {
    URI closed = url();
    server.close();
    SymbolStore store = new SymbolStore(cache, closed, Duration.ofSeconds(2), 4096);

    assertThatThrownBy(() -> store.fetch(KEY))
        .isInstanceOf(SymbolStore.NotFound.class)
        .hasMessageContaining(" could not be reached (");
  }

  @Test
  void withoutAServerOnlyTheCacheIsLookedIn() {
    SymbolStore store = new SymbolStore(cache, null, Duration.ofSeconds(1), 4096);

    assertThatThrownBy(() -> store.fetch(KEY))
        .isInstanceOf(SymbolStore.NotFound.class)
        .hasMessage("not in the cache " + cache.resolve(KEY) + " (no symbol server)");
  }

  @Test
  void keysCannotLeaveTheCache() {
    SymbolStore store = new SymbolStore(cache, url(), Duration.ofSeconds(1), 4096);

    for (String bad :
        new String[] {"../x/y", "a/../b", "a/b", "/etc/passwd/x", "a/b/c/d", "a/b c/d"}) {
      assertThatThrownBy(() -> store.cachePath(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
