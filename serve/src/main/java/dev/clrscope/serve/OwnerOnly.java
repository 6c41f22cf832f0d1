package dev.clrscope.serve;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * Whether a file or directory is serve's user's alone, as the artifact directory and the token file
 * must be: no permission for group or others, and owned by serve's user. One place for both checks,
 * whose refusals each say what to do.
 */
final class OwnerOnly {
  private OwnerOnly() {}

  /**
   * {@code path}'s mode ({@code rw-rw-rw-}) when group or others have any permission on it, else
   * {@code null}.
   */
  static String openToOthers(Path path) throws IOException {
    Set<PosixFilePermission> mode = Files.getPosixFilePermissions(path);
    Set<PosixFilePermission> others = EnumSet.noneOf(PosixFilePermission.class);
    others.addAll(mode);
    others.removeAll(
        Set.of(
            PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_EXECUTE));
    return others.isEmpty() ? null : PosixFilePermissions.toString(mode);
  }

  /** The uid owning {@code path} ({@code /proc/self}: serve's user), or -1 when unknown. */
  static int uid(Path path) {
    try {
      return (Integer) Files.getAttribute(path, "unix:uid");
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return -1;
    }
  }

  /** serve's user, or -1 when unknown. */
  static int self() {
    return uid(Path.of("/proc/self"));
  }
}
