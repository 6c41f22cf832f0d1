package dev.clrscope.ipc.transport;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.nio.channels.SocketChannel;

/**
 * Initialises the JDK's Unix-domain socket support on a daemon thread, so that a first connect made
 * soon after does not pay for it: its first use loads NIO's native library and seeds a secure
 * random generator, 13-17 ms in a fresh JVM, which a caller that has other start-up work to do
 * (binding slf4j, discovery) can overlap with it on a second core.
 *
 * <p>A class of its own, with no logger, because {@link UnixSocketConnection}'s logger would bind
 * slf4j on the caller's thread before the daemon thread starts, and so serialise the two.
 */
public final class UnixSocketPreload {
  private UnixSocketPreload() {}

  /** Starts the daemon thread: it opens and closes one unconnected socket; nothing is sent. */
  public static void start() {
    Thread t =
        new Thread(
            () -> {
              try {
                SocketChannel.open(StandardProtocolFamily.UNIX).close();
              } catch (IOException | RuntimeException e) {
                // The connect that follows reports what is wrong, with the endpoint it concerns.
              }
            },
            "clrscope-unix-socket-init");
    t.setDaemon(true);
    t.start();
  }
}
