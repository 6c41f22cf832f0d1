package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.DacSession;
import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.TargetException.Problem;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DAC found by its SSQP key on a symbol server when the runtime directory a core names is not
 * on this machine (the core's {@code NT_FILE} paths moved to a directory that does not exist, as
 * for a core taken elsewhere): downloaded from a local HTTP server laid out as a symbol store, kept
 * in the cache, used from the cache next time; a server without it is named in the message.
 */
class DacDownloadTest {
  private static final String RUNTIME_PARENT = "/usr/share/dotnet/shared/";
  private static final String MOVED_PARENT = "/usr/share/dotneX/shared/";

  @TempDir Path dir;
  private SymbolServerDir server;

  @BeforeEach
  void serve() throws IOException {
    server = new SymbolServerDir(dir.resolve("store"));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private URI url() {
    return server.url();
  }

  @Test
  void theDacIsDownloadedByItsKeyThenTakenFromTheCache() throws Exception {
    Path core = movedCore();
    String buildId;
    Path runtimeDac;
    try (DacSession local = DacSession.openCore(dir.resolve("app.core"), options(null))) {
      buildId = local.runtime().info().buildId();
      runtimeDac = local.runtime().info().dac();
    }
    String key = "libmscordaccore.so/elf-buildid-coreclr-" + buildId + "/libmscordaccore.so";
    Path published = dir.resolve("store").resolve(key);
    Files.createDirectories(published.getParent());
    Files.copy(runtimeDac, published);

    try (DacSession p = DacSession.openCore(core, options(url()))) {
      assertThat(p.runtime().info().coreclrPath()).startsWith(MOVED_PARENT);
      assertThat(p.runtime().info().dacSource()).isEqualTo("downloaded from " + url() + "/" + key);
      assertThat(p.runtime().info().dac()).isEqualTo(dir.resolve("cache").resolve(key));
      assertThat(p.heap().statistics().of("TargetApp.FactItem").count()).isEqualTo(100);
    }
    assertThat(Files.readAllBytes(dir.resolve("cache").resolve(key)))
        .isEqualTo(Files.readAllBytes(runtimeDac));
    assertThat(server.requests()).hasSize(1);

    server.close();
    try (DacSession p = DacSession.openCore(core, options(url()))) {
      assertThat(p.runtime().info().dacSource()).isEqualTo("cache");
      assertThat(p.heap().statistics().of("TargetApp.FactItem").count()).isEqualTo(100);
    }
  }

  @Test
  void aDacFoundNowhereIsOneLineNamingTheBuildAndEveryPlace() throws Exception {
    Path core = movedCore();
    String buildId;
    String runtimeDir;
    try (DacSession local = DacSession.openCore(dir.resolve("app.core"), options(null))) {
      buildId = local.runtime().info().buildId();
      runtimeDir =
          Path.of(local.runtime().info().coreclrPath())
              .getParent()
              .toString()
              .replace(RUNTIME_PARENT, MOVED_PARENT);
    }
    String key = "libmscordaccore.so/elf-buildid-coreclr-" + buildId + "/libmscordaccore.so";

    assertThatThrownBy(() -> DacSession.openCore(core, options(url())))
        .isInstanceOfSatisfying(
            TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.DAC_NOT_FOUND))
        .hasMessage(
            "no DAC for runtime build-id "
                + buildId
                + ": the runtime directory "
                + runtimeDir
                + " (no libcoreclr.so there); not in the cache "
                + dir.resolve("cache").resolve(key)
                + ", and "
                + url()
                + "/"
                + key
                + " has no such file (HTTP 404); give --dac PATH (the libmscordaccore.so of that"
                + " runtime build) or --symbol-server URL");
  }

  private DacOptions options(URI server) {
    // The test's server is plain http on the loopback.
    return DacOptions.defaults()
        .withSymbolServer(server)
        .withAllowHttp(true)
        .withCacheDir(dir.resolve("cache"));
  }

  /** A full core of TargetApp after {@code facts 100}, and a copy whose runtime moved away. */
  private Path movedCore() throws IOException {
    Path core = dir.resolve("app.core");
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP)) {
      app.send("facts 100");
      DacCoreDumpTest.dump(app.pid(), "full", core);
    }
    byte[] bytes = Files.readAllBytes(core);
    int replaced = replaceInNotes(bytes, RUNTIME_PARENT, MOVED_PARENT);
    assertThat(replaced).as("runtime paths in the core's notes").isPositive();
    Path moved = dir.resolve("moved.core");
    Files.write(moved, bytes);
    return moved;
  }

  // Replaces a path prefix by another of the same length in the core's PT_NOTE segments only.
  static int replaceInNotes(byte[] core, String from, String to) {
    ByteBuffer b = ByteBuffer.wrap(core).order(ByteOrder.LITTLE_ENDIAN);
    long phoff = b.getLong(32);
    int phnum = Short.toUnsignedInt(b.getShort(56));
    byte[] f = from.getBytes(StandardCharsets.US_ASCII);
    byte[] t = to.getBytes(StandardCharsets.US_ASCII);
    int count = 0;
    for (int i = 0; i < phnum; i++) {
      int at = (int) phoff + 56 * i;
      if (b.getInt(at) != 4) {
        continue;
      }
      int start = (int) b.getLong(at + 8);
      int end = start + (int) b.getLong(at + 32);
      for (int k = start; k + f.length <= end; k++) {
        if (java.util.Arrays.equals(core, k, k + f.length, f, 0, f.length)) {
          System.arraycopy(t, 0, core, k, t.length);
          count++;
        }
      }
    }
    return count;
  }
}
