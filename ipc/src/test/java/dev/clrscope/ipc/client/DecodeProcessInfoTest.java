package dev.clrscope.ipc.client;

import static dev.clrscope.ipc.testing.Hex.concat;
import static dev.clrscope.ipc.testing.Hex.string;
import static dev.clrscope.ipc.testing.Hex.u32;
import static dev.clrscope.ipc.testing.Hex.u64;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.ipc.MalformedMessageException;
import dev.clrscope.ipc.protocol.IpcCommand;
import dev.clrscope.ipc.testing.Hex;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class DecodeProcessInfoTest {
  private static final UUID COOKIE = UUID.fromString("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");

  /** ProcessInfo v1, every byte written out. */
  private static final byte[] V1 =
      Hex.bytes(
          "34 12 00 00 00 00 00 00" // pid 0x1234
              + " 23 0d 3c e1 bc cc 12 4e 93 1b d9 cc 2e ee 27 e4" // cookie
              + " 04 00 00 00 61 00 20 00 62 00 00 00" // "a b"
              + " 06 00 00 00 4c 00 69 00 6e 00 75 00 78 00 00 00" // "Linux"
              + " 04 00 00 00 78 00 36 00 34 00 00 00"); // "x64"

  private static final byte[] V2 = concat(V1, string("MyApp"), string("10.0.1+0123abcd"));

  private static byte[] v3(int version, byte[]... tail) {
    return concat(u32(version), V2, concat(tail));
  }

  @Test
  void decodesVersion1() {
    ProcessInfo info = DiagnosticsClient.decodeProcessInfo(IpcCommand.PROCESS_INFO, V1);
    assertThat(info)
        .isEqualTo(
            new ProcessInfo(
                0x1234, COOKIE, "a b", "Linux", "x64", null, null, null, IpcCommand.PROCESS_INFO));
  }

  @Test
  void decodesVersion2() {
    ProcessInfo info = DiagnosticsClient.decodeProcessInfo(IpcCommand.PROCESS_INFO_2, V2);
    assertThat(info)
        .isEqualTo(
            new ProcessInfo(
                0x1234,
                COOKIE,
                "a b",
                "Linux",
                "x64",
                "MyApp",
                "10.0.1+0123abcd",
                null,
                IpcCommand.PROCESS_INFO_2));
  }

  @Test
  void decodesVersion3WithRuntimeIdentifier() {
    ProcessInfo info =
        DiagnosticsClient.decodeProcessInfo(IpcCommand.PROCESS_INFO_3, v3(1, string("linux-x64")));
    assertThat(info)
        .isEqualTo(
            new ProcessInfo(
                0x1234,
                COOKIE,
                "a b",
                "Linux",
                "x64",
                "MyApp",
                "10.0.1+0123abcd",
                "linux-x64",
                IpcCommand.PROCESS_INFO_3));
  }

  @Test
  void decodesVersion3Version0WithoutRuntimeIdentifier() {
    ProcessInfo info = DiagnosticsClient.decodeProcessInfo(IpcCommand.PROCESS_INFO_3, v3(0));
    assertThat(info.runtimeIdentifier()).isNull();
    assertThat(info.clrProductVersion()).isEqualTo("10.0.1+0123abcd");
    assertThat(info.answeredBy()).isEqualTo(IpcCommand.PROCESS_INFO_3);
  }

  @Test
  void laterVersionsOfProcessInfo3StillCarryTheRuntimeIdentifier() {
    ProcessInfo info =
        DiagnosticsClient.decodeProcessInfo(
            IpcCommand.PROCESS_INFO_3, v3(2, string("osx-arm64"), Hex.bytes("ee ee")));
    assertThat(info.runtimeIdentifier()).isEqualTo("osx-arm64");
  }

  @Test
  void nullAndNonAsciiStrings() {
    byte[] payload =
        concat(
            u64(-1L),
            new byte[16],
            string(null),
            string("Windows"),
            string("arm64"),
            string("Äpp"),
            string(null));
    ProcessInfo info = DiagnosticsClient.decodeProcessInfo(IpcCommand.PROCESS_INFO_2, payload);
    assertThat(info.pid()).isEqualTo(-1L);
    assertThat(info.runtimeCookie()).isEqualTo(new UUID(0, 0));
    assertThat(info.commandLine()).isNull();
    assertThat(info.entrypointAssembly()).isEqualTo("Äpp");
    assertThat(info.clrProductVersion()).isNull();
  }

  @Test
  void everyTruncationOfEveryVersionIsMalformed() {
    check(IpcCommand.PROCESS_INFO, V1);
    check(IpcCommand.PROCESS_INFO_2, V2);
    check(IpcCommand.PROCESS_INFO_3, v3(0));
    check(IpcCommand.PROCESS_INFO_3, v3(1, string("linux-x64")));
  }

  private static void check(IpcCommand command, byte[] full) {
    DiagnosticsClient.decodeProcessInfo(command, full); // the whole payload decodes
    for (int len = 0; len < full.length; len++) {
      byte[] prefix = Arrays.copyOf(full, len);
      int l = len;
      assertThatThrownBy(() -> DiagnosticsClient.decodeProcessInfo(command, prefix))
          .as("%s truncated to %d of %d bytes", command, len, full.length)
          .isInstanceOfSatisfying(
              MalformedMessageException.class, e -> assertThat(e.offset()).isBetween(20L, 20L + l));
    }
  }

  @Test
  void emptyPayloadNamesThePidAtOffset20() {
    assertThatThrownBy(
            () -> DiagnosticsClient.decodeProcessInfo(IpcCommand.PROCESS_INFO, new byte[0]))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("at offset 20")
        .hasMessageContaining("the pid");
    assertThatThrownBy(
            () -> DiagnosticsClient.decodeProcessInfo(IpcCommand.PROCESS_INFO_3, new byte[0]))
        .hasMessageContaining("the ProcessInfo3 version");
  }

  @Test
  void hugeStringCountInTheReplyIsMalformed() {
    byte[] payload = concat(u64(1), new byte[16], Hex.bytes("ff ff ff ff 41 00"));
    assertThatThrownBy(() -> DiagnosticsClient.decodeProcessInfo(IpcCommand.PROCESS_INFO, payload))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("at offset 44")
        .hasMessageContaining("the command line");
  }
}
