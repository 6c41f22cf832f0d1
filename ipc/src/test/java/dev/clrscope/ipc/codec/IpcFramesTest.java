package dev.clrscope.ipc.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.ipc.ConnectionClosedException;
import dev.clrscope.ipc.MalformedMessageException;
import dev.clrscope.ipc.RequestTooLargeException;
import dev.clrscope.ipc.ServerErrorException;
import dev.clrscope.ipc.protocol.DiagnosticServerError;
import dev.clrscope.ipc.protocol.IpcCommand;
import dev.clrscope.ipc.testing.Hex;
import dev.clrscope.ipc.testing.MemoryConnection;
import org.junit.jupiter.api.Test;

class IpcFramesTest {
  private static final String MAGIC_HEX = "44 4f 54 4e 45 54 5f 49 50 43 5f 56 31 00";

  private static IpcHeader reply(int size, int id) {
    return new IpcHeader(size, 0xFF, id, 0);
  }

  @Test
  void encodesProcessInfoWithEmptyPayload() {
    byte[] b = IpcFrames.encodeRequest(IpcCommand.PROCESS_INFO, new byte[0]);
    assertThat(Hex.of(b)).isEqualTo(MAGIC_HEX + " 14 00 04 00 00 00");
  }

  @Test
  void encodesProcessInfo3WithEmptyPayload() {
    byte[] b = IpcFrames.encodeRequest(IpcCommand.PROCESS_INFO_3, new byte[0]);
    assertThat(Hex.of(b)).isEqualTo(MAGIC_HEX + " 14 00 04 08 00 00");
  }

  @Test
  void encodesHeaderThenPayload() {
    byte[] b = IpcFrames.encodeRequest(IpcCommand.ENABLE_PERF_MAP, Hex.bytes("03 00 00 00"));
    assertThat(Hex.of(b)).isEqualTo(MAGIC_HEX + " 18 00 04 05 00 00 03 00 00 00");
    byte[] stop = IpcFrames.encodeRequest(IpcCommand.STOP_TRACING, Hex.u64(0x1122334455667788L));
    assertThat(Hex.of(stop)).isEqualTo(MAGIC_HEX + " 1c 00 02 01 00 00 88 77 66 55 44 33 22 11");
  }

  @Test
  void acceptsTheLargestMessage() {
    byte[] b = IpcFrames.encodeRequest(IpcCommand.COLLECT_TRACING_5, new byte[65535 - 20]);
    assertThat(b).hasSize(65535);
    assertThat(Hex.of(java.util.Arrays.copyOfRange(b, 14, 18))).isEqualTo("ff ff 02 06");
  }

  @Test
  void rejectsAMessageOverTheLimit() {
    assertThatThrownBy(
            () -> IpcFrames.encodeRequest(IpcCommand.COLLECT_TRACING_5, new byte[65535 - 19]))
        .isInstanceOf(RequestTooLargeException.class)
        .hasMessage(
            "the CollectTracing5 (0x0206) request would be 65,536 bytes; the diagnostic protocol"
                + " carries at most 65,535 bytes a message: send less (fewer or shorter providers,"
                + " filters, names or values)");
  }

  @Test
  void okReplyReturnsThePayload() {
    byte[] payload = Hex.bytes("01 02 03 04");
    assertThat(IpcFrames.decodeReply(reply(24, 0x00), payload, IpcCommand.PROCESS_INFO))
        .isEqualTo(payload);
  }

  @Test
  void errorReplyBecomesServerErrorException() {
    assertThatThrownBy(
            () ->
                IpcFrames.decodeReply(
                    reply(24, 0xFF), Hex.bytes("85 13 13 80"), IpcCommand.PROCESS_INFO_3))
        .isInstanceOfSatisfying(
            ServerErrorException.class,
            e -> {
              assertThat(e.error()).isEqualTo(DiagnosticServerError.UNKNOWN_COMMAND);
              assertThat(e.isUnknownCommand()).isTrue();
              assertThat(e.hresult()).isEqualTo(0x80131385);
              assertThat(e.command()).isEqualTo(IpcCommand.PROCESS_INFO_3);
              assertThat(e.serverMessage()).isNull();
              assertThat(e.getMessage())
                  .isEqualTo(
                      "ProcessInfo3 (0x0408) failed: the runtime does not know this command"
                          + " (HRESULT 0x80131385)");
            });
  }

  @Test
  void otherErrorsAreNotUnknownCommand() {
    assertThatThrownBy(
            () ->
                IpcFrames.decodeReply(
                    reply(24, 0xFF), Hex.bytes("05 40 00 80"), IpcCommand.ENABLE_PERF_MAP))
        .isInstanceOfSatisfying(
            ServerErrorException.class,
            e -> {
              assertThat(e.error()).isEqualTo(DiagnosticServerError.FAIL);
              assertThat(e.isUnknownCommand()).isFalse();
              assertThat(e.getMessage())
                  .isEqualTo(
                      "EnablePerfMap (0x0405) failed: the runtime reported a failure"
                          + " (HRESULT 0x80004005)");
            });
  }

  @Test
  void unknownHresultIsOther() {
    assertThatThrownBy(
            () ->
                IpcFrames.decodeReply(
                    reply(24, 0xFF), Hex.bytes("78 56 34 12"), IpcCommand.RESUME_RUNTIME))
        .isInstanceOfSatisfying(
            ServerErrorException.class,
            e -> {
              assertThat(e.error()).isEqualTo(DiagnosticServerError.OTHER);
              assertThat(e.hresult()).isEqualTo(0x12345678);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "ResumeRuntime (0x0401) failed: the runtime reported an error"
                          + " (HRESULT 0x12345678)");
            });
  }

  @Test
  void generateCoreDump3ErrorCarriesTheRuntimesMessage() {
    byte[] payload = Hex.concat(Hex.bytes("05 40 00 80"), Hex.string("  createdump failed\n"));
    assertThatThrownBy(
            () ->
                IpcFrames.decodeReply(
                    reply(20 + payload.length, 0xFF), payload, IpcCommand.GENERATE_CORE_DUMP_3))
        .isInstanceOfSatisfying(
            ServerErrorException.class,
            e -> {
              assertThat(e.error()).isEqualTo(DiagnosticServerError.FAIL);
              assertThat(e.serverMessage()).isEqualTo("  createdump failed\n");
              assertThat(e.getMessage())
                  .isEqualTo(
                      "GenerateCoreDump3 (0x0103) failed: the runtime reported a failure"
                          + " (HRESULT 0x80004005): createdump failed");
            });
  }

  @Test
  void generateCoreDump3ErrorWithoutMessageIsFine() {
    assertThatThrownBy(
            () ->
                IpcFrames.decodeReply(
                    reply(24, 0xFF), Hex.bytes("57 00 07 80"), IpcCommand.GENERATE_CORE_DUMP_3))
        .isInstanceOfSatisfying(
            ServerErrorException.class,
            e -> {
              assertThat(e.error()).isEqualTo(DiagnosticServerError.INVALID_ARGUMENT);
              assertThat(e.serverMessage()).isNull();
            });
  }

  @Test
  void generateCoreDump3ErrorWithTruncatedMessageIsMalformed() {
    byte[] payload = Hex.bytes("05 40 00 80 09 00 00 00 41 00");
    assertThatThrownBy(
            () -> IpcFrames.decodeReply(reply(30, 0xFF), payload, IpcCommand.GENERATE_CORE_DUMP_3))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("at offset 24");
  }

  @Test
  void otherCommandsIgnoreTrailingErrorBytes() {
    byte[] payload = Hex.concat(Hex.bytes("05 40 00 80"), Hex.string("ignored"));
    assertThatThrownBy(
            () ->
                IpcFrames.decodeReply(
                    reply(20 + payload.length, 0xFF), payload, IpcCommand.GENERATE_CORE_DUMP_2))
        .isInstanceOfSatisfying(
            ServerErrorException.class, e -> assertThat(e.serverMessage()).isNull());
  }

  @Test
  void errorReplyWithoutHresultIsMalformedAtOffset20() {
    assertThatThrownBy(
            () ->
                IpcFrames.decodeReply(reply(22, 0xFF), Hex.bytes("05 40"), IpcCommand.PROCESS_INFO))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("at offset 20")
        .hasMessageContaining("the error HRESULT");
  }

  @Test
  void nonServerCommandSetIsMalformed() {
    IpcHeader h = new IpcHeader(20, 0x04, 0x00, 0);
    assertThatThrownBy(() -> IpcFrames.decodeReply(h, new byte[0], IpcCommand.PROCESS_INFO))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("at offset 14")
        .hasMessageContaining("got command set 0x04")
        .hasMessageContaining("ProcessInfo (0x0400)");
  }

  @Test
  void unknownResponseIdIsMalformed() {
    assertThatThrownBy(
            () -> IpcFrames.decodeReply(reply(20, 0x01), new byte[0], IpcCommand.PROCESS_INFO))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("at offset 15")
        .hasMessageContaining("got 0x01");
  }

  @Test
  void writeRequestAndReadReplyOverAConnectionInSmallChunks() {
    byte[] replyBytes = Hex.concat(Hex.header(28, 0xFF, 0x00), Hex.u64(42));
    MemoryConnection c = new MemoryConnection(replyBytes, 3);
    IpcFrames.writeRequest(c, IpcCommand.STOP_TRACING, Hex.u64(42));
    assertThat(Hex.of(c.written()))
        .isEqualTo(MAGIC_HEX + " 1c 00 02 01 00 00 2a 00 00 00 00 00 00 00");
    assertThat(Hex.of(IpcFrames.readReply(c, IpcCommand.STOP_TRACING)))
        .isEqualTo("2a 00 00 00 00 00 00 00");
  }

  @Test
  void readReplyReadsExactlyTheSizeInTheHeader() {
    // A generic OK carries an i32 even when the caller expects nothing: it must be consumed.
    byte[] replyBytes =
        Hex.concat(Hex.header(24, 0xFF, 0x00), Hex.bytes("00 00 00 00"), Hex.bytes("99"));
    MemoryConnection c = new MemoryConnection(replyBytes, 100);
    assertThat(IpcFrames.readReply(c, IpcCommand.RESUME_RUNTIME)).hasSize(4);
    byte[] rest = new byte[1];
    c.readFully(rest, "the next byte");
    assertThat(rest[0]).isEqualTo((byte) 0x99);
  }

  @Test
  void readReplyOfAnErrorThrows() {
    MemoryConnection c =
        new MemoryConnection(Hex.concat(Hex.header(24, 0xFF, 0xFF), Hex.bytes("85 13 13 80")), 5);
    assertThatThrownBy(() -> IpcFrames.readReply(c, IpcCommand.PROCESS_INFO_3))
        .isInstanceOf(ServerErrorException.class);
  }

  @Test
  void readReplyOfATruncatedStreamSaysWhatWasBeingRead() {
    MemoryConnection c =
        new MemoryConnection(Hex.concat(Hex.header(28, 0xFF, 0x00), Hex.bytes("01 02 03")), 2);
    assertThatThrownBy(() -> IpcFrames.readReply(c, IpcCommand.PROCESS_INFO))
        .isInstanceOf(ConnectionClosedException.class)
        .hasMessageContaining("the reply to ProcessInfo (0x0400)")
        .hasMessageContaining("after 3 of 8 bytes");
    MemoryConnection shortHeader = new MemoryConnection(Hex.bytes("44 4f 54"), 100);
    assertThatThrownBy(() -> IpcFrames.readReply(shortHeader, IpcCommand.PROCESS_INFO))
        .isInstanceOf(ConnectionClosedException.class)
        .hasMessageContaining("the header of the reply to ProcessInfo (0x0400)")
        .hasMessageContaining("after 3 of 20 bytes");
  }

  @Test
  void readReplyRejectsGarbage() {
    MemoryConnection c = new MemoryConnection(new byte[20], 100);
    assertThatThrownBy(() -> IpcFrames.readReply(c, IpcCommand.PROCESS_INFO))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("at offset 0");
  }
}
