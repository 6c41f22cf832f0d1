package dev.clrscope.ipc.transport;

import java.nio.file.Path;

/** Where a runtime's diagnostic server listens: a Unix domain socket or a Windows named pipe. */
public sealed interface IpcEndpoint permits IpcEndpoint.UnixSocket, IpcEndpoint.NamedPipe {

  /** A text for messages, such as the socket path. */
  String describe();

  /**
   * A Unix domain socket.
   *
   * @param path the socket file
   */
  record UnixSocket(Path path) implements IpcEndpoint {
    @Override
    public String describe() {
      return path.toString();
    }
  }

  /**
   * A Windows named pipe.
   *
   * @param name the pipe's name without the {@code \\.\pipe\} prefix
   */
  record NamedPipe(String name) implements IpcEndpoint {
    /** The full path to open, {@code \\.\pipe\NAME}. */
    public String fullPath() {
      return "\\\\.\\pipe\\" + name;
    }

    @Override
    public String describe() {
      return fullPath();
    }
  }
}
