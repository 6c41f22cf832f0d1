package dev.clrscope.symbols;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.symbols.FileTrust.Kind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ssh-like walk: a file and every directory above it root's or the user's and writable by no
 * one else, links resolved one at a time and their targets walked too. The suite runs as root;
 * "another user" is a uid with no account.
 */
class FileTrustTest {
  private static final int ME = FileTrust.currentUid();
  private static final int OTHER = 54321;

  @TempDir Path dir;
  private Path lib;

  @BeforeEach
  void tree() throws IOException {
    Path rt = Files.createDirectories(dir.resolve("opt/app/runtime"));
    for (Path p = rt; !p.equals(dir); p = p.getParent()) {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    lib = Files.writeString(rt.resolve("libmscordaccore.so"), "code");
    Files.setPosixFilePermissions(lib, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private FileTrust.Checked check(Path p) throws IOException {
    return FileTrust.check(p, Kind.REGULAR_FILE, ME);
  }

  @Test
  void aFileOfRootOrTheUserUnderDirectoriesNoOneElseWritesIsTrusted() throws IOException {
    FileTrust.Checked c = check(lib);
    assertThat(c.trusted()).isTrue();
    assertThat(c.real()).isEqualTo(lib.toRealPath());
    // /tmp itself is writable by everyone but sticky: others cannot rename what is not theirs.
    assertThat(Files.getAttribute(dir.getParent(), "unix:mode")).isNotNull();
  }

  @Test
  void aDirectoryOthersMayWriteAnywhereAboveIsNamedWithItsOwnerAndMode() throws IOException {
    Path app = dir.resolve("opt/app");
    Files.setPosixFilePermissions(app, PosixFilePermissions.fromString("rwxrwxrwx"));
    FileTrust.Checked c = check(lib);
    assertThat(c.trusted()).isFalse();
    assertThat(c.untrusted().path()).isEqualTo(app);
    assertThat(c.untrusted().text())
        .isEqualTo(app + " is writable by everyone (owner root, mode 0777)");

    Files.setPosixFilePermissions(app, PosixFilePermissions.fromString("rwxrwxr-x"));
    assertThat(check(lib).untrusted().text())
        .isEqualTo(app + " is writable by its group (owner root, mode 0775)");
  }

  @Test
  void anotherUsersDirectoryOrFileIsNotTrusted() throws IOException {
    Path rt = lib.getParent();
    Files.setAttribute(rt, "unix:uid", OTHER);
    assertThat(check(lib).untrusted().text())
        .isEqualTo(rt + " belongs to 54321 (uid 54321, mode 0755), not to root or to you");
    Files.setAttribute(rt, "unix:uid", ME);
    Files.setAttribute(lib, "unix:uid", OTHER);
    assertThat(check(lib).untrusted().path()).isEqualTo(lib);
    // The same tree checked for that other user: root's parts are fine, its own too.
    assertThat(FileTrust.check(lib, Kind.REGULAR_FILE, OTHER).trusted()).isTrue();
  }

  @Test
  void aFileOthersMayWriteIsNotTrusted() throws IOException {
    Files.setPosixFilePermissions(lib, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertThat(check(lib).untrusted().text())
        .isEqualTo(lib + " is writable by everyone (owner root, mode 0777)");
  }

  @Test
  void aStickyDirectoryIsAcceptedOnlyForEntriesOfRootOrTheUser() throws IOException {
    Path tmp = dir.resolve("opt");
    Files.setAttribute(tmp, "unix:mode", 01777);
    assertThat(check(lib).trusted()).isTrue();
    Path app = dir.resolve("opt/app");
    Files.setAttribute(app, "unix:uid", OTHER);
    assertThat(check(lib).untrusted().path()).isEqualTo(app);
  }

  @Test
  void linksAreResolvedOneAtATimeAndTheirTargetsChecked() throws IOException {
    Path link = Files.createSymbolicLink(dir.resolve("current"), Path.of("opt/app/runtime"));
    FileTrust.Checked c = check(link.resolve("libmscordaccore.so"));
    assertThat(c.real()).isEqualTo(lib.toRealPath());

    // A root-owned link into a directory someone else may write is as good as that directory.
    Path theirs = Files.createDirectories(dir.resolve("home/eve/rt"));
    Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(theirs.getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(
        theirs.getParent().getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setAttribute(theirs.getParent(), "unix:uid", OTHER);
    Files.writeString(theirs.resolve("libmscordaccore.so"), "code");
    Path absolute = Files.createSymbolicLink(dir.resolve("opt/eve"), theirs);
    assertThat(check(absolute.resolve("libmscordaccore.so")).untrusted().path())
        .isEqualTo(theirs.getParent());

    Path loop = Files.createSymbolicLink(dir.resolve("loop"), Path.of("loop"));
    assertThatThrownBy(() -> check(loop)).hasMessageContaining("too many levels");
  }

  @Test
  void aPathUnderProcPidRootIsResolvedInsideThatRoot() throws IOException {
    String root = "/proc/" + ProcessHandle.current().pid() + "/root";
    Path viaProc = Path.of(root).resolve(dir.toString().substring(1));
    FileTrust.Checked c = check(viaProc.resolve("opt/app/runtime/libmscordaccore.so"));
    assertThat(c.trusted()).isTrue();
    assertThat(c.real()).isEqualTo(Path.of(root + lib.toRealPath()));
  }

  @Test
  void anEntryIsCheckedAsItIsNeverFollowed() throws IOException {
    Path link = Files.createSymbolicLink(dir.resolve("planted.so"), lib);
    assertThat(FileTrust.entry(link, Kind.REGULAR_FILE, ME).text())
        .isEqualTo(link + " is a symbolic link (to " + lib + ")");
    assertThat(FileTrust.entry(lib, Kind.REGULAR_FILE, ME)).isNull();
    assertThat(FileTrust.entry(lib, Kind.DIRECTORY, ME).text())
        .isEqualTo(lib + " is not a directory");
    Path fifo = dir.resolve("fifo");
    assertThat(FileTrust.entry(dir, Kind.REGULAR_FILE, ME).why())
        .isEqualTo("is not a regular file");
    assertThat(fifo).doesNotExist();
  }

  @Test
  void privateDirectoriesAreMadeOwnerOnlyAndOnlyWhereTrusted() throws IOException {
    Path made = FileTrust.privateDirectory(dir.resolve("cache/clrscope/symbols"), ME).real();
    assertThat(made).isEqualTo(dir.resolve("cache/clrscope/symbols").toRealPath());
    for (Path p = made; !p.equals(dir.toRealPath()); p = p.getParent()) {
      assertThat(Files.getPosixFilePermissions(p))
          .as("%s", p)
          .isEqualTo(PosixFilePermissions.fromString("rwx------"));
    }
    Path open = Files.createDirectories(dir.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    FileTrust.Checked refused = FileTrust.privateDirectory(open.resolve("clrscope/symbols"), ME);
    assertThat(refused.untrusted().path()).isEqualTo(open);
    assertThat(open.resolve("clrscope")).doesNotExist();
  }
}
