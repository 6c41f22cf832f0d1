package dev.clrscope.ipc.codec;

import dev.clrscope.ipc.MalformedMessageException;
import dev.clrscope.ipc.RequestTooLargeException;
import dev.clrscope.ipc.ServerErrorException;
import dev.clrscope.ipc.protocol.CommandSet;
import dev.clrscope.ipc.protocol.IpcCommand;
import dev.clrscope.ipc.protocol.ServerResponse;
import dev.clrscope.ipc.transport.IpcConnection;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes requests and reads replies on a connection: the one place where a header meets the wire
 * and where error replies become {@link ServerErrorException}.
 */
public final class IpcFrames {
  private static final Logger log = LoggerFactory.getLogger(IpcFrames.class);

  private IpcFrames() {}

  /**
   * The bytes of a request: header then payload.
   *
   * @throws RequestTooLargeException if they would exceed one message's limit
   */
  public static byte[] encodeRequest(IpcCommand command, byte[] payload) {
    int size = IpcHeader.SIZE + payload.length;
    if (size > IpcHeader.MAX_MESSAGE_SIZE) {
      throw new RequestTooLargeException(
          String.format(
              Locale.ROOT,
              "the %s request would be %,d bytes; the diagnostic protocol carries at most %,d"
                  + " bytes a message: send less (fewer or shorter providers, filters, names or"
                  + " values)",
              command.describe(),
              size,
              IpcHeader.MAX_MESSAGE_SIZE));
    }
    byte[] header = new IpcHeader(size, command.set().code(), command.id(), 0).encode();
    byte[] message = new byte[size];
    System.arraycopy(header, 0, message, 0, IpcHeader.SIZE);
    System.arraycopy(payload, 0, message, IpcHeader.SIZE, payload.length);
    return message;
  }

  /** Sends a request. */
  public static void writeRequest(IpcConnection connection, IpcCommand command, byte[] payload) {
    byte[] message = encodeRequest(command, payload);
    connection.write(message);
    if (log.isDebugEnabled()) {
      log.debug(
          "sent {} to {} ({} bytes)", command.describe(), connection.description(), message.length);
    }
  }

  /**
   * Reads one reply to {@code command}.
   *
   * @return the payload of an OK reply
   * @throws ServerErrorException for an error reply
   * @throws MalformedMessageException if the reply is not a server reply
   */
  public static byte[] readReply(IpcConnection connection, IpcCommand command) {
    byte[] headerBytes = new byte[IpcHeader.SIZE];
    connection.readFully(headerBytes, "the header of the reply to " + command.describe());
    IpcHeader header = IpcHeader.decode(headerBytes, 0);
    byte[] payload = new byte[header.payloadSize()];
    connection.readFully(payload, "the reply to " + command.describe());
    return decodeReply(header, payload, command);
  }

  /** Interprets a reply already read: its payload if OK, else the server error it carries. */
  public static byte[] decodeReply(IpcHeader header, byte[] payload, IpcCommand command) {
    if (header.commandSet() != CommandSet.SERVER.code()) {
      throw new MalformedMessageException(
          14,
          String.format(
              "expected a server reply (command set 0xFF) to %s, got command set 0x%02X",
              command.describe(), header.commandSet()));
    }
    if (header.commandId() == ServerResponse.OK.id()) {
      if (log.isDebugEnabled()) {
        log.debug("{} answered OK ({} payload bytes)", command.describe(), payload.length);
      }
      return payload;
    }
    if (header.commandId() == ServerResponse.ERROR.id()) {
      PayloadReader r = new PayloadReader(payload, IpcHeader.SIZE);
      int hresult = r.u32("the error HRESULT");
      String message = null;
      if (command == IpcCommand.GENERATE_CORE_DUMP_3 && r.remaining() >= 4) {
        message = r.string("the error message");
      }
      ServerErrorException error = new ServerErrorException(command, hresult, message);
      log.debug("error reply: {}", error.getMessage());
      throw error;
    }
    throw new MalformedMessageException(
        15,
        String.format(
            "expected reply id OK (0x00) or Error (0xFF) to %s, got 0x%02X",
            command.describe(), header.commandId()));
  }
}
