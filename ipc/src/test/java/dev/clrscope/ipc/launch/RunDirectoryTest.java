package dev.clrscope.ipc.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What killed runs leave is swept at once, whatever its age: a port directory with its socket, a
 * serve directory with unfinished files; never a live run's, another user's, or one that holds a
 * finished artifact.
 */
class RunDirectoryTest {
  @TempDir Path tmp;

  /** A pid no process has: one that ran and exited. */
  private static long deadPid() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    return p.pid();
  }

  private Path port(String name) throws Exception {
    Path d = Files.createDirectory(tmp.resolve(name));
    try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      s.bind(UnixDomainSocketAddress.of(d.resolve("port")));
    }
    return d;
  }

  @Test
  void everyLeftoverOfADeadRunGoesAndNothingElse() throws Exception {
    long dead = deadPid();
    long live = ProcessHandle.current().pid();
    port("clrscope-" + dead + "-1");
    port("clrscope-" + dead + "-2");
    Path serve = Files.createDirectory(tmp.resolve("clrscope-serve-" + dead + "-3"));
    Files.write(serve.resolve("20261126_101010_42.gcdump.partial"), new byte[10]);
    Files.createDirectory(tmp.resolve("clrscope-serve-" + dead + "-4"));
    // Kept: a live run's, one holding a dump, another user's, one not named as a run.
    port("clrscope-" + live + "-5");
    Path dumps = Files.createDirectory(tmp.resolve("clrscope-serve-" + dead + "-6"));
    Files.write(dumps.resolve("core_20261126_101010_42"), new byte[10]);
    Path theirs = port("clrscope-" + dead + "-7");
    Files.setAttribute(theirs, "unix:uid", 65534);
    port("clrscope-123456");

    assertThat(RunDirectory.sweep(tmp, new dev.clrscope.ipc.discovery.EndpointLocator()))
        .isEqualTo(4);

    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder(
              "clrscope-" + live + "-5",
              "clrscope-serve-" + dead + "-6",
              "clrscope-" + dead + "-7",
              "clrscope-123456");
    }
  }

  @Test
  void aFreshDirectoryIsNamedForItsRunAndPrivate() throws Exception {
    Path d = RunDirectory.create(tmp, RunDirectory.Kind.SERVE);
    assertThat(d.getFileName().toString())
        .startsWith("clrscope-serve-" + ProcessHandle.current().pid() + "-");
    assertThat(
            java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(d)))
        .isEqualTo("rwx------");
    assertThat(RunDirectory.sweep(tmp, new dev.clrscope.ipc.discovery.EndpointLocator())).isZero();
  }
}
