package dev.clrscope.ipc.client;

import dev.clrscope.ipc.transport.IpcConnection;
import java.time.Duration;

/**
 * Hands out fresh connections to one runtime. The protocol uses up a connection per command, so
 * each request asks for a new one: dialled for a listening runtime, or accepted from the next
 * advertisement of a runtime that connects to us.
 */
public interface ConnectionSource {
  /** A new connection, within {@code timeout}. */
  IpcConnection open(Duration timeout);

  /** What is connected to, for messages. */
  String describe();
}
