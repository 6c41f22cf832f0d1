package dev.clrscope.ipc;

import dev.clrscope.ipc.protocol.DiagnosticServerError;
import dev.clrscope.ipc.protocol.IpcCommand;

/** The runtime answered a request with an error reply. */
public final class ServerErrorException extends DiagnosticsException {
  private static final long serialVersionUID = 1L;
  private final DiagnosticServerError error;
  private final int hresult;
  private final IpcCommand command;
  private final String serverMessage;

  /**
   * An error reply.
   *
   * @param command the request that failed
   * @param hresult the raw HRESULT
   * @param serverMessage the runtime's own explanation, or {@code null} (only GenerateCoreDump3
   *     sends one)
   */
  public ServerErrorException(IpcCommand command, int hresult, String serverMessage) {
    super(describe(command, hresult, serverMessage));
    this.error = DiagnosticServerError.fromHresult(hresult);
    this.hresult = hresult;
    this.command = command;
    this.serverMessage = serverMessage;
  }

  private static String describe(IpcCommand command, int hresult, String serverMessage) {
    DiagnosticServerError error = DiagnosticServerError.fromHresult(hresult);
    String text =
        String.format(
            "%s failed: %s (HRESULT 0x%08X)", command.describe(), error.meaning(), hresult);
    if (serverMessage != null && !serverMessage.isBlank()) {
      text += ": " + serverMessage.strip();
    }
    return text;
  }

  /** The error, or {@link DiagnosticServerError#OTHER} for codes outside the table. */
  public DiagnosticServerError error() {
    return error;
  }

  /** The raw HRESULT. */
  public int hresult() {
    return hresult;
  }

  /** The request that failed. */
  public IpcCommand command() {
    return command;
  }

  /** The runtime's own message, or {@code null}. */
  public String serverMessage() {
    return serverMessage;
  }

  /** Whether the runtime predates this command, so that an older version may be tried. */
  public boolean isUnknownCommand() {
    return error == DiagnosticServerError.UNKNOWN_COMMAND;
  }
}
