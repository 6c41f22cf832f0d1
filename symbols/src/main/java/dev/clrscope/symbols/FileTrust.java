package dev.clrscope.symbols;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a file may be trusted as code clrscope loads or data it keeps, the way ssh trusts a key
 * file: the file and every directory above it are owned by root or by the user clrscope runs as,
 * and no one else may write them. Anyone who could write one of them could put their own library in
 * its place, and a DAC runs with clrscope's rights (root's, for an engineer using sudo).
 *
 * <p>Symbolic links are resolved here, one component at a time, without the kernel following any of
 * them: each link is read and its target walked and checked in turn, and the path returned ({@link
 * Checked#real()}) has none left, so what is opened afterwards is what was checked. A path under
 * {@code /proc/PID/root} (a process in a container) is resolved inside that root, as the process
 * sees it. A directory others may write is accepted only with the sticky bit (as {@code /tmp}),
 * where they cannot rename or remove what is not theirs; the entry in it must then be root's or the
 * user's, links included.
 */
public final class FileTrust {
  /** Past this many links in one path, resolution stops, as the kernel's does (ELOOP). */
  private static final int MAX_LINKS = 40;

  private static final Pattern PROC_ROOT = Pattern.compile("^/proc/[0-9]+/root(?=/|$)");

  private static final int S_IFMT = 0170000;
  private static final int S_IFDIR = 0040000;
  private static final int S_IFREG = 0100000;
  private static final int S_IFLNK = 0120000;
  private static final int S_ISVTX = 01000;
  private static final int GROUP_WRITE = 020;
  private static final int OTHER_WRITE = 02;

  private FileTrust() {}

  /** The user clrscope runs as. */
  public static int currentUid() {
    return (int) new com.sun.security.auth.module.UnixSystem().getUid();
  }

  /**
   * Why a path is not trusted: which path, whose, which mode, and what is wrong, as the phrase that
   * follows the path ({@code belongs to eve (uid 1001, mode 0755), not to root or to you}).
   */
  public record Untrusted(Path path, String owner, int uid, int mode, String why) {
    /** The path and why. */
    public String text() {
      return path + " " + why;
    }

    @Override
    public String toString() {
      return text();
    }
  }

  /**
   * A path checked: its real path (no symbolic link left) when every part of it is trusted, else
   * why not.
   */
  public record Checked(Path real, Untrusted untrusted) {
    public boolean trusted() {
      return untrusted == null;
    }
  }

  /** What the last component must be. */
  public enum Kind {
    REGULAR_FILE,
    DIRECTORY
  }

  /**
   * Resolves {@code path} and checks it and every directory above it for the user {@code uid}.
   *
   * @throws NoSuchFileException when a component does not exist
   * @throws IOException when a component cannot be read, or links loop
   */
  public static Checked check(Path path, Kind kind, int uid) throws IOException {
    String abs = path.toAbsolutePath().toString();
    Path base = Path.of("/");
    Matcher m = PROC_ROOT.matcher(abs);
    if (m.find()) {
      base = Path.of(m.group());
      abs = abs.substring(m.end());
    }
    // The base is the root as the target sees it: a magic link for /proc/PID/root, followed.
    Attrs root = Attrs.of(base, true);
    Untrusted u = directory(root, uid, base);
    if (u != null) {
      return new Checked(null, u);
    }
    Deque<String> todo = new ArrayDeque<>(names(abs));
    Path current = base;
    boolean parentSticky = false;
    int links = 0;
    while (!todo.isEmpty()) {
      String name = todo.pollFirst();
      if (name.isEmpty() || name.equals(".")) {
        continue;
      }
      if (name.equals("..")) {
        if (!current.equals(base)) {
          current = current.getParent();
        }
        parentSticky = false;
        continue;
      }
      Path next = current.resolve(name);
      Attrs a = Attrs.of(next, false);
      if (parentSticky && a.uid != 0 && a.uid != uid) {
        // In /tmp and its kind, whoever owns an entry may replace it, a link included.
        return new Checked(null, notOwned(next, a));
      }
      if (a.type() == S_IFLNK) {
        if (++links > MAX_LINKS) {
          throw new IOException(path + ": too many levels of symbolic links");
        }
        String target = Files.readSymbolicLink(next).toString();
        List<String> spliced = names(target);
        for (int i = spliced.size() - 1; i >= 0; i--) {
          todo.addFirst(spliced.get(i));
        }
        if (target.startsWith("/")) {
          current = base;
          parentSticky = false;
        }
        continue;
      }
      boolean last = todo.stream().allMatch(n -> n.isEmpty() || n.equals("."));
      u = last && kind == Kind.REGULAR_FILE ? regularFile(a, uid, next) : directory(a, uid, next);
      if (u != null) {
        return new Checked(null, u);
      }
      parentSticky = (a.mode & S_ISVTX) != 0 && (a.mode & (GROUP_WRITE | OTHER_WRITE)) != 0;
      current = next;
    }
    if (kind == Kind.REGULAR_FILE && current.equals(base)) {
      return new Checked(null, regularFile(root, uid, base));
    }
    return new Checked(current, null);
  }

  /**
   * Checks one entry as it is, never following it (for the parts of a path below a directory
   * already checked): a link, another user's entry, one others may write, or one of the wrong kind
   * is not trusted.
   *
   * @throws NoSuchFileException when it does not exist
   */
  public static Untrusted entry(Path entry, Kind kind, int uid) throws IOException {
    Attrs a = Attrs.of(entry, false);
    if (a.type() == S_IFLNK) {
      String to;
      try {
        to = Files.readSymbolicLink(entry).toString();
      } catch (IOException e) {
        to = "?";
      }
      return new Untrusted(entry, a.owner, a.uid, a.mode, "is a symbolic link (to " + to + ")");
    }
    return kind == Kind.REGULAR_FILE ? regularFile(a, uid, entry) : directory(a, uid, entry);
  }

  /**
   * Checks {@code dir} as {@link #check} does, first making it if it is missing: the part of it
   * that exists is checked, and only when trusted are the missing directories made in it, each
   * owner-only (0700), so nothing is made where a link someone else planted points.
   */
  public static Checked privateDirectory(Path dir, int uid) throws IOException {
    Path abs = dir.toAbsolutePath();
    Path existing = abs;
    while (existing.getParent() != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
      existing = existing.getParent();
    }
    Checked c = check(existing, Kind.DIRECTORY, uid);
    if (!c.trusted() || existing.equals(abs)) {
      return c;
    }
    Path real = c.real().resolve(existing.relativize(abs));
    createPrivateDirectories(real);
    return check(real, Kind.DIRECTORY, uid);
  }

  /**
   * Creates {@code dir} and the directories above it that are missing, each readable and writable
   * by its owner alone (0700). An entry that exists, whatever it is, is left as it is for the
   * caller's check.
   */
  public static void createPrivateDirectories(Path dir) throws IOException {
    List<Path> missing = new ArrayList<>();
    for (Path p = dir.toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
        break;
      }
      missing.add(0, p);
    }
    for (Path p : missing) {
      try {
        Files.createDirectory(
            p, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } catch (FileAlreadyExistsException e) {
        // Made meanwhile by another run: checked like any other directory afterwards.
      }
    }
  }

  /** The mode as ls's octal: {@code 0755}, {@code 1777}. */
  public static String octal(int mode) {
    return String.format("%04o", mode & 07777);
  }

  private static Untrusted regularFile(Attrs a, int uid, Path p) {
    if (a.type() != S_IFREG) {
      return new Untrusted(p, a.owner, a.uid, a.mode, "is not a regular file");
    }
    if (a.uid != 0 && a.uid != uid) {
      return notOwned(p, a);
    }
    if ((a.mode & (GROUP_WRITE | OTHER_WRITE)) != 0) {
      return writable(p, a);
    }
    return null;
  }

  private static Untrusted directory(Attrs a, int uid, Path p) {
    if (a.type() != S_IFDIR) {
      return new Untrusted(p, a.owner, a.uid, a.mode, "is not a directory");
    }
    if (a.uid != 0 && a.uid != uid) {
      return notOwned(p, a);
    }
    if ((a.mode & (GROUP_WRITE | OTHER_WRITE)) != 0 && (a.mode & S_ISVTX) == 0) {
      return writable(p, a);
    }
    return null;
  }

  private static Untrusted notOwned(Path p, Attrs a) {
    return new Untrusted(
        p,
        a.owner,
        a.uid,
        a.mode,
        "belongs to "
            + a.owner
            + " (uid "
            + a.uid
            + ", mode "
            + octal(a.mode)
            + "), not to root or to you");
  }

  private static Untrusted writable(Path p, Attrs a) {
    String who = (a.mode & OTHER_WRITE) != 0 ? "everyone" : "its group";
    return new Untrusted(
        p,
        a.owner,
        a.uid,
        a.mode,
        "is writable by " + who + " (owner " + a.owner + ", mode " + octal(a.mode) + ")");
  }

  private static List<String> names(String path) {
    List<String> names = new ArrayList<>();
    for (String n : path.split("/", -1)) {
      if (!n.isEmpty()) {
        names.add(n);
      }
    }
    return names;
  }

  /** The owner, uid and mode (with the file type and sticky bits) of one entry. */
  private record Attrs(String owner, int uid, int mode) {
    int type() {
      return mode & S_IFMT;
    }

    static Attrs of(Path p, boolean follow) throws IOException {
      LinkOption[] options =
          follow ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
      Map<String, Object> a = Files.readAttributes(p, "unix:uid,mode,owner", options);
      int uid = (Integer) a.get("uid");
      Object owner = a.get("owner");
      String name = owner instanceof UserPrincipal up ? up.getName() : Integer.toString(uid);
      return new Attrs(name, uid, (Integer) a.get("mode"));
    }
  }
}
