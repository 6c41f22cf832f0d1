package dev.clrscope.ipc.transport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;

/** Who owns a socket file: the user to run as when permission is denied. */
final class SocketOwnership {
  private SocketOwnership() {}

  /** The owner's name, or {@code null} if it cannot be read. */
  static String describeOwner(Path socket) {
    try {
      UserPrincipal owner = Files.getOwner(socket);
      return owner.getName();
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }
}
