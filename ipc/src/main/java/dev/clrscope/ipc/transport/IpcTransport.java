package dev.clrscope.ipc.transport;

import java.time.Duration;

/** Opens connections to endpoints, whichever transport they use. */
public final class IpcTransport {
  private IpcTransport() {}

  /** Connects to the endpoint, failing after {@code timeout}. */
  public static IpcConnection connect(IpcEndpoint endpoint, Duration timeout) {
    if (endpoint instanceof IpcEndpoint.UnixSocket socket) {
      return UnixSocketConnection.connect(socket.path(), timeout);
    }
    return NamedPipeConnection.connect((IpcEndpoint.NamedPipe) endpoint, timeout);
  }
}
