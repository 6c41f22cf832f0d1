package dev.clrscope.ipc.client;

import dev.clrscope.ipc.transport.IpcConnection;
import dev.clrscope.ipc.transport.IpcEndpoint;
import dev.clrscope.ipc.transport.IpcTransport;
import java.time.Duration;

/**
 * Dials a runtime's own listening endpoint for every connection.
 *
 * @param endpoint the socket or pipe
 */
public record EndpointConnectionSource(IpcEndpoint endpoint) implements ConnectionSource {
  @Override
  public IpcConnection open(Duration timeout) {
    return IpcTransport.connect(endpoint, timeout);
  }

  @Override
  public String describe() {
    return endpoint.describe();
  }
}
