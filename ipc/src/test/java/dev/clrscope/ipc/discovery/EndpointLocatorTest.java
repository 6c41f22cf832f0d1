package dev.clrscope.ipc.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.ipc.TargetNotFoundException;
import dev.clrscope.ipc.transport.IpcEndpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.StringJoiner;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Discovery over a fake /proc in a temporary directory. Pids are far above any real pid_max, so the
 * real /tmp (always searched as well) cannot hold sockets for them.
 */
class EndpointLocatorTest {
  private static final long PID = 91_000_001L;

  @TempDir Path root;
  Path proc;
  Path tmp;
  Path defaultTmp;
  EndpointLocator locator;

  @BeforeEach
  void setUp() throws IOException {
    proc = Files.createDirectories(root.resolve("proc"));
    tmp = Files.createDirectories(root.resolve("target-tmp"));
    defaultTmp = Files.createDirectories(root.resolve("default-tmp"));
    locator = new EndpointLocator(proc, false, defaultTmp.toString());
  }

  /** A fake /proc/PID. */
  final class FakeProcess {
    final Path dir;

    FakeProcess(long pid) throws IOException {
      dir = Files.createDirectories(proc.resolve(pid < 0 ? "self" : Long.toString(pid)));
    }

    FakeProcess status(String name, long... nspids) throws IOException {
      StringJoiner ns = new StringJoiner("\t");
      for (long p : nspids) {
        ns.add(Long.toString(p));
      }
      Files.writeString(
          dir.resolve("status"),
          "Name:\t"
              + name
              + "\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t1\n"
              + (nspids.length > 0 ? "NSpid:\t" + ns + "\n" : "")
              + "PPid:\t1\n");
      return this;
    }

    FakeProcess environ(String... entries) throws IOException {
      Files.writeString(dir.resolve("environ"), String.join("\0", entries) + "\0");
      return this;
    }

    FakeProcess stat(String comm, String startTicks) throws IOException {
      StringBuilder sb = new StringBuilder(dir.getFileName() + " (" + comm + ") S");
      for (int field = 4; field <= 21; field++) {
        sb.append(' ').append(field * 11);
      }
      sb.append(' ').append(startTicks);
      for (int field = 23; field <= 52; field++) {
        sb.append(" 0");
      }
      Files.writeString(dir.resolve("stat"), sb.append('\n').toString());
      return this;
    }

    FakeProcess cmdline(String... args) throws IOException {
      Files.writeString(dir.resolve("cmdline"), String.join("\0", args) + "\0");
      return this;
    }

    FakeProcess maps(String... libs) throws IOException {
      StringBuilder sb = new StringBuilder();
      for (String lib : libs) {
        sb.append("7f0000000000-7f0000001000 r-xp 00000000 08:01 1234 ").append(lib).append('\n');
      }
      Files.writeString(dir.resolve("maps"), sb.toString());
      return this;
    }
  }

  private FakeProcess process(long pid) throws IOException {
    return new FakeProcess(pid);
  }

  private static Path socket(Path dir, long pid, String key, long mtimeSeconds) throws IOException {
    Path p = Files.createFile(dir.resolve("dotnet-diagnostic-" + pid + "-" + key + "-socket"));
    Files.setLastModifiedTime(p, FileTime.from(Instant.ofEpochSecond(mtimeSeconds)));
    return p;
  }

  private static Path endpointPath(DotnetProcess p) {
    return ((IpcEndpoint.UnixSocket) p.endpoint()).path();
  }

  @Test
  void findsTheSocketInTheTargetsTmpdir() throws IOException {
    process(PID)
        .status("dotnet", PID)
        .environ("HOME=/root", "TMPDIR=" + tmp, "PATH=/bin")
        .stat("dotnet", "555")
        .cmdline("dotnet", "/app/App.dll", "--urls", "http://x")
        .maps("/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.0/libcoreclr.so");
    Path s = socket(tmp, PID, "555", 1_000);
    socket(defaultTmp, PID, "555", 2_000); // the default dir is searched only after TMPDIR

    DotnetProcess p = locator.locate(PID);
    assertThat(endpointPath(p)).isEqualTo(s);
    assertThat(p.pid()).isEqualTo(PID);
    assertThat(p.runtimePid()).isEqualTo(PID);
    assertThat(p.name()).isEqualTo("dotnet");
    assertThat(p.commandLine()).isEqualTo("dotnet /app/App.dll --urls http://x");
    assertThat(p.isNamed("app")).isTrue();
  }

  @Test
  void fallsBackOnTheDefaultTmpWithoutTmpdir() throws IOException {
    process(PID).status("MyApp").environ("HOME=/root");
    Path s = socket(defaultTmp, PID, "1", 1_000);
    assertThat(endpointPath(locator.locate(PID))).isEqualTo(s);
  }

  @Test
  void emptyTmpdirIsIgnored() throws IOException {
    process(PID).status("MyApp").environ("TMPDIR=", "X=1");
    Path s = socket(defaultTmp, PID, "1", 1_000);
    assertThat(endpointPath(locator.locate(PID))).isEqualTo(s);
  }

  @Test
  void usesTheInnermostNamespacePid() throws IOException {
    long inner = 91_000_017L;
    process(PID).status("dotnet", PID, 91_000_500L, inner).environ("TMPDIR=" + tmp);
    socket(tmp, PID, "1", 1_000); // the host pid is not what the runtime names its socket with
    Path s = socket(tmp, inner, "1", 500);
    DotnetProcess p = locator.locate(PID);
    assertThat(endpointPath(p)).isEqualTo(s);
    assertThat(p.pid()).isEqualTo(PID);
    assertThat(p.runtimePid()).isEqualTo(inner);
  }

  @Test
  void prefersTheKeyMatchingTheStartTimeOverANewerStaleSocket() throws IOException {
    // The comm field may hold spaces and parentheses.
    process(PID).status("odd app").environ("TMPDIR=" + tmp).stat("my (odd) app) x", "123456");
    Path current = socket(tmp, PID, "123456", 1_000);
    socket(tmp, PID, "999999", 9_000);
    socket(tmp, PID, "12345", 9_500); // a prefix of the right key is not the right key
    assertThat(endpointPath(locator.locate(PID))).isEqualTo(current);
  }

  @Test
  void takesTheNewestWhenNoKeyMatches() throws IOException {
    process(PID).status("a").environ("TMPDIR=" + tmp).stat("a", "42");
    socket(tmp, PID, "1", 1_000);
    Path newest = socket(tmp, PID, "3", 3_000);
    socket(tmp, PID, "2", 2_000);
    assertThat(endpointPath(locator.locate(PID))).isEqualTo(newest);
  }

  @Test
  void takesTheNewestWhenStatIsMissing() throws IOException {
    process(PID).status("a").environ("TMPDIR=" + tmp);
    socket(tmp, PID, "1", 5_000);
    socket(tmp, PID, "2", 1_000);
    assertThat(endpointPath(locator.locate(PID)).getFileName().toString())
        .isEqualTo("dotnet-diagnostic-" + PID + "-1-socket");
  }

  @Test
  void ignoresSocketsOfOtherPidsAndOddNames() throws IOException {
    process(PID).status("a").environ("TMPDIR=" + tmp);
    socket(tmp, PID + 1, "1", 1_000);
    socket(tmp, 1, "1", 1_000);
    Files.createFile(tmp.resolve("dotnet-diagnostic-" + PID + "-socket"));
    Files.createFile(tmp.resolve("dotnet-diagnostic-x" + PID + "-1-socket"));
    Files.createFile(tmp.resolve("dotnet-diagnostic-" + PID + "-1-socket.bak"));
    assertThatThrownBy(() -> locator.locate(PID)).isInstanceOf(TargetNotFoundException.class);
    Path s = socket(tmp, PID, "7", 1_000);
    assertThat(endpointPath(locator.locate(PID))).isEqualTo(s);
  }

  @Test
  void noSuchPid() {
    assertThatThrownBy(() -> locator.locate(PID))
        .isInstanceOf(TargetNotFoundException.class)
        .hasMessage(
            "no process with pid " + PID + " is running; `clrscope ps` lists .NET processes");
  }

  @Test
  void notADotnetProcess() throws IOException {
    process(PID).status("bash").environ("TMPDIR=" + tmp).maps("/usr/lib/libc.so.6");
    assertThatThrownBy(() -> locator.locate(PID))
        .isInstanceOf(TargetNotFoundException.class)
        .hasMessage(
            "process "
                + PID
                + " (bash) is not a .NET (Core) process: it has no CoreCLR runtime loaded;"
                + " `clrscope ps` lists .NET processes");
  }

  @Test
  void monoProcess() throws IOException {
    process(PID).status("mono").maps("/usr/lib/libmonosgen-2.0.so.1");
    assertThatThrownBy(() -> locator.locate(PID))
        .isInstanceOf(TargetNotFoundException.class)
        .hasMessage(
            "process "
                + PID
                + " (mono) runs on Mono, which has no diagnostic server clrscope can talk to");
  }

  @Test
  void coreClrWithoutSocketSaysWhereItLookedAndWhy() throws IOException {
    process(PID).status("dotnet").environ("TMPDIR=" + tmp).maps("/x/libcoreclr.so");
    assertThatThrownBy(() -> locator.locate(PID))
        .isInstanceOf(TargetNotFoundException.class)
        .hasMessage(
            "process "
                + PID
                + " (dotnet) has no diagnostic socket in "
                + tmp
                + " or "
                + defaultTmp
                + " or /tmp: it may have been started with DOTNET_EnableDiagnostics=0, or still be"
                + " starting");
  }

  @Test
  void unreadableMapsAsksWhetherItIsDotnet() throws IOException {
    process(PID); // nothing readable: a process of another user, or one that just exited
    assertThatThrownBy(() -> locator.locate(PID))
        .isInstanceOf(TargetNotFoundException.class)
        .hasMessageStartingWith("process " + PID + " has no diagnostic socket in ")
        .hasMessageContaining(": is it a .NET process? If so, it may have been started with");
  }

  @Test
  void listFindsDotnetProcessesInPidOrderAndSkipsTheRest() throws IOException {
    long a = 91_000_300L;
    long b = 91_000_200L;
    long plain = 91_000_250L;
    long broken = 91_000_260L;
    long empty = 91_000_270L;
    process(a).status("A", a).environ("TMPDIR=" + tmp).cmdline("/opt/a/A");
    process(b).status("B", b, 5).environ("TMPDIR=" + tmp);
    process(plain).status("bash").environ("TMPDIR=" + tmp).maps("/lib/libc.so.6");
    // status and environ that cannot be read as files (here: directories).
    FakeProcess brokenProcess = process(broken);
    Files.createDirectory(brokenProcess.dir.resolve("status"));
    Files.createDirectory(brokenProcess.dir.resolve("environ"));
    Files.createDirectory(brokenProcess.dir.resolve("stat"));
    process(empty); // vanished: nothing left to read
    Files.createDirectories(proc.resolve("self"));
    Files.createDirectories(proc.resolve("net"));
    Files.createFile(proc.resolve("91000400")); // not a directory
    Path sa = socket(tmp, a, "1", 1_000);
    Path sb = socket(tmp, 5, "1", 1_000);
    Path sBroken = socket(defaultTmp, broken, "9", 1_000);
    Path sEmpty = socket(defaultTmp, empty, "9", 1_000);

    List<DotnetProcess> found = locator.list();
    assertThat(found).extracting(DotnetProcess::pid).containsExactly(b, broken, empty, a);
    assertThat(found)
        .extracting(EndpointLocatorTest::endpointPath)
        .containsExactly(sb, sBroken, sEmpty, sa);
    assertThat(found.get(0).runtimePid()).isEqualTo(5);
    assertThat(found.get(0).name()).isEqualTo("B");
    assertThat(found.get(1).name()).isNull();
    assertThat(found.get(1).commandLine()).isNull();
    assertThat(found.get(3).commandLine()).isEqualTo("/opt/a/A");
  }

  /**
   * With the namespace's socket table readable, a process of this network namespace is searched
   * only when a bound socket names its pid (in its own pid namespace): a socket file nobody binds
   * any longer is passed over; a process in another network namespace is searched in full.
   */
  @Test
  void listSearchesOnlyPidsWithABoundSocketInThisNetworkNamespace() throws IOException {
    long bound = 91_000_500L;
    long stale = 91_000_510L;
    long inner = 91_000_520L; // pid 7 in a pid namespace of its own, same network
    long elsewhere = 91_000_530L; // another network namespace: not in our table
    namespaces(
        process(bound).status("Bound", bound).environ("TMPDIR=" + tmp), "net:[1]", "pid:[1]");
    namespaces(
        process(stale).status("Stale", stale).environ("TMPDIR=" + tmp), "net:[1]", "pid:[1]");
    namespaces(
        process(inner).status("Inner", inner, 7).environ("TMPDIR=" + tmp), "net:[1]", "pid:[2]");
    namespaces(
        process(elsewhere).status("Else", elsewhere).environ("TMPDIR=" + tmp),
        "net:[3]",
        "pid:[1]");
    namespaces(new FakeProcess(-1), "net:[1]", "pid:[1]");
    Path sBound = socket(tmp, bound, "1", 1_000);
    socket(tmp, stale, "1", 1_000);
    Path sInner = socket(tmp, 7, "1", 1_000);
    Path sElsewhere = socket(tmp, elsewhere, "1", 1_000);
    Files.createDirectories(proc.resolve("net"));
    Files.writeString(
        proc.resolve("net/unix"),
        "Num       RefCount Protocol Flags    Type St Inode Path\n"
            + "0000000000000000: 00000002 00000000 00010000 0001 01 11 "
            + sBound
            + "\n0000000000000000: 00000002 00000000 00010000 0001 01 12 /tmp/dotnet-diagnostic-7-1-socket\n"
            + "0000000000000000: 00000003 00000000 00000000 0001 03 13 /run/systemd/notify\n"
            + "0000000000000000: 00000002 00000000 00010000 0001 01 14 /tmp/dotnet-diagnostic-x-socket\n");

    List<DotnetProcess> found = locator.list();

    assertThat(found).extracting(DotnetProcess::pid).containsExactly(bound, inner, elsewhere);
    assertThat(found)
        .extracting(EndpointLocatorTest::endpointPath)
        .containsExactly(sBound, sInner, sElsewhere);
  }

  /**
   * A process that reuses the pid of a killed runtime, whose socket file is still there but bound
   * by nobody: the table says so, and the message says what the process is.
   */
  @Test
  void locatePassesOverADeadSocketThatTheTableDoesNotShow() throws IOException {
    namespaces(
        process(PID).status("sleep", PID).environ("TMPDIR=" + tmp).maps("/usr/lib/libc.so.6"),
        "net:[1]",
        "pid:[1]");
    namespaces(new FakeProcess(-1), "net:[1]", "pid:[1]");
    socket(tmp, PID, "7", 1_000);
    Files.createDirectories(proc.resolve("net"));
    Files.writeString(
        proc.resolve("net/unix"), "Num       RefCount Protocol Flags    Type St Inode Path\n");

    assertThatThrownBy(() -> locator.locate(PID))
        .isInstanceOf(TargetNotFoundException.class)
        .hasMessage(
            "process "
                + PID
                + " (sleep) is not a .NET (Core) process: it has no CoreCLR runtime loaded;"
                + " `clrscope ps` lists .NET processes");
  }

  /** Gives a fake process (pid -1: /proc/self) namespace links. */
  private void namespaces(FakeProcess p, String net, String pid) throws IOException {
    Path ns = Files.createDirectories(p.dir.resolve("ns"));
    Files.createSymbolicLink(ns.resolve("net"), Path.of(net));
    Files.createSymbolicLink(ns.resolve("pid"), Path.of(pid));
  }

  @Test
  void listOfAnEmptyOrMissingProcIsEmpty() throws IOException {
    assertThat(locator.list()).isEmpty();
    EndpointLocator missing =
        new EndpointLocator(root.resolve("no-proc"), false, defaultTmp.toString());
    assertThat(missing.list()).isEmpty();
  }

  @Test
  void listSurvivesAMissingTmpdir() throws IOException {
    process(PID).status("a").environ("TMPDIR=" + root.resolve("gone"));
    Path s = socket(defaultTmp, PID, "1", 1_000);
    assertThat(locator.list()).extracting(EndpointLocatorTest::endpointPath).containsExactly(s);
  }

  @Test
  void windowsUsesNamedPipesWithoutProc() {
    EndpointLocator windows = new EndpointLocator(root.resolve("no-proc"), true, "C:\\Temp");
    DotnetProcess p = windows.locate(1234);
    assertThat(p.endpoint()).isEqualTo(new IpcEndpoint.NamedPipe("dotnet-diagnostic-1234"));
    assertThat(p.endpoint().describe()).isEqualTo("\\\\.\\pipe\\dotnet-diagnostic-1234");
    assertThat(p.pid()).isEqualTo(1234);
    assertThat(p.runtimePid()).isEqualTo(1234);
  }

  /** A path is bound when a line of the table ends with it exactly; no table, no answer. */
  @Test
  void isBoundReadsTheTableOfSockets() throws IOException {
    assertThat(locator.isBound(Path.of("/tmp/clrscope-1/port"))).isNull();
    Files.createDirectories(proc.resolve("net"));
    Files.writeString(
        proc.resolve("net/unix"),
        "Num       RefCount Protocol Flags    Type St Inode Path\n"
            + "0000000000000000: 00000002 00000000 00010000 0001 01 11 /tmp/clrscope-1/port\n"
            + "0000000000000000: 00000002 00000000 00010000 0001 01 12 /tmp/clrscope-2/port2");

    assertThat(locator.isBound(Path.of("/tmp/clrscope-1/port"))).isTrue();
    assertThat(locator.isBound(Path.of("/tmp/clrscope-2/port2"))).isTrue();
    assertThat(locator.isBound(Path.of("/tmp/clrscope-2/port"))).isFalse();
    assertThat(locator.isBound(Path.of("/tmp/clrscope-3/port"))).isFalse();
  }
}
