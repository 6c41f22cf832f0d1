package dev.clrscope.ipc.client;

import static dev.clrscope.ipc.testing.Hex.concat;
import static dev.clrscope.ipc.testing.Hex.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.ipc.RuntimeTooOldException;
import dev.clrscope.ipc.codec.IpcHeader;
import dev.clrscope.ipc.codec.PayloadWriter;
import dev.clrscope.ipc.protocol.IpcCommand;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSession;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.ipc.transport.IpcConnection;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The session fallback against a scripted runtime that knows the CollectTracing versions a real one
 * knows (8.0.31: v1 and v2; 9.0.20: v1 to v4; 10.0.12: v1 to v5), each request answered by what
 * that runtime answers: the session id, or UNKNOWN_COMMAND.
 */
class SessionFallbackTest {
  private static final int UNKNOWN_COMMAND = 0x80131385;

  private static final EventPipeProvider RUNTIME =
      new EventPipeProvider("Microsoft-Windows-DotNETRuntime", 0x1, 4);

  /** Answers each request as a runtime of {@code version} that knows {@code known} does. */
  private static final class ScriptedRuntime implements ConnectionSource {
    final String version;
    final Set<IpcCommand> known;
    final List<IpcCommand> asked = new ArrayList<>();
    final List<byte[]> payloads = new ArrayList<>();

    ScriptedRuntime(String version, Set<IpcCommand> known) {
      this.version = version;
      this.known = known;
    }

    @Override
    public IpcConnection open(Duration timeout) {
      return new ScriptedConnection(this);
    }

    @Override
    public String describe() {
      return "a scripted .NET " + version;
    }

    private byte[] answer(byte[] request) {
      IpcHeader h = IpcHeader.decode(request, 0);
      IpcCommand command = null;
      for (IpcCommand c : IpcCommand.values()) {
        if (c.set().code() == h.commandSet() && c.id() == h.commandId()) {
          command = c;
        }
      }
      if (command == IpcCommand.STOP_TRACING) {
        return reply(0x00, new PayloadWriter().u64(7).toByteArray());
      }
      asked.add(command);
      byte[] payload = new byte[request.length - IpcHeader.SIZE];
      System.arraycopy(request, IpcHeader.SIZE, payload, 0, payload.length);
      payloads.add(payload);
      if (!known.contains(command)) {
        return reply(0xFF, new PayloadWriter().u32(UNKNOWN_COMMAND).toByteArray());
      }
      if (command == IpcCommand.PROCESS_INFO_2) {
        byte[] v1 =
            new PayloadWriter()
                .u64(42)
                .guid(UUID.fromString("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"))
                .string("app")
                .string("Linux")
                .string("x64")
                .toByteArray();
        return reply(0x00, concat(v1, string("App"), string(version)));
      }
      return reply(0x00, new PayloadWriter().u64(7).toByteArray());
    }

    private static byte[] reply(int id, byte[] payload) {
      return concat(new IpcHeader(IpcHeader.SIZE + payload.length, 0xFF, id, 0).encode(), payload);
    }
  }

  /** A connection that answers what was written to it, once the reply is read. */
  private static final class ScriptedConnection extends IpcConnection {
    private final ScriptedRuntime runtime;
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private byte[] reply;
    private int pos;

    ScriptedConnection(ScriptedRuntime runtime) {
      super("scripted");
      this.runtime = runtime;
    }

    @Override
    protected int readRaw(byte[] buffer, int offset, int len) {
      if (reply == null) {
        reply = runtime.answer(written.toByteArray());
      }
      if (pos == reply.length) {
        return -1;
      }
      int n = Math.min(len, reply.length - pos);
      System.arraycopy(reply, pos, buffer, offset, n);
      pos += n;
      return n;
    }

    @Override
    protected void writeRaw(byte[] buffer, int offset, int len) {
      written.write(buffer, offset, len);
    }

    @Override
    protected void abort() {}
  }

  private static Set<IpcCommand> net8() {
    return Set.of(
        IpcCommand.COLLECT_TRACING,
        IpcCommand.COLLECT_TRACING_2,
        IpcCommand.PROCESS_INFO,
        IpcCommand.PROCESS_INFO_2);
  }

  private static EventPipeSession start(
      ScriptedRuntime runtime, List<String> notes, EventPipeSessionConfig config) {
    return new DiagnosticsClient(runtime, Duration.ofSeconds(2))
        .noticesTo(notes::add)
        .startEventPipeSession(config);
  }

  @Test
  void stacksOffOnNet8FallsBackToVersion2WithStacksAndSaysSoWithTheRuntimesVersion() {
    ScriptedRuntime net8 = new ScriptedRuntime("8.0.31+abc", net8());
    List<String> notes = new ArrayList<>();
    EventPipeSessionConfig countersLike =
        new EventPipeSessionConfig(4, List.of(RUNTIME), 0, false, false);
    try (EventPipeSession s = start(net8, notes, countersLike)) {
      assertThat(s.sessionId()).isEqualTo(7);
    }
    assertThat(net8.asked)
        .containsExactly(
            IpcCommand.COLLECT_TRACING_3,
            IpcCommand.PROCESS_INFO_3,
            IpcCommand.PROCESS_INFO_2,
            IpcCommand.COLLECT_TRACING_2);
    // v2's payload: buffer 4, format 1, no rundown, then the provider: stacks are the runtime's.
    assertThat(net8.payloads.get(3)).startsWith(new byte[] {4, 0, 0, 0, 1, 0, 0, 0, 0, 1});
    assertThat(notes)
        .containsExactly(
            ".NET 8.0.31 cannot turn event stacks off (CollectTracing3, .NET 9): its events carry"
                + " their stacks, a little more work for it");
  }

  @Test
  void aSecondSessionGoesStraightToAVersionTheRuntimeKnowsAndSaysNothingAgain() {
    ScriptedRuntime net8 = new ScriptedRuntime("8.0.31", net8());
    List<String> notes = new ArrayList<>();
    DiagnosticsClient client =
        new DiagnosticsClient(net8, Duration.ofSeconds(2)).noticesTo(notes::add);
    EventPipeSessionConfig config =
        new EventPipeSessionConfig(4, List.of(RUNTIME), 0, false, false);
    client.startEventPipeSession(config).close();
    net8.asked.clear();
    client.startEventPipeSession(config).close();
    assertThat(net8.asked).containsExactly(IpcCommand.COLLECT_TRACING_2);
    assertThat(notes).hasSize(1);
  }

  @Test
  void aHeapWalksLoaderRundownOnNet8BecomesTheClassicRundownWithStacks() {
    ScriptedRuntime net8 = new ScriptedRuntime("8.0.31", net8());
    List<String> notes = new ArrayList<>();
    EventPipeSessionConfig heapLike =
        new EventPipeSessionConfig(256, List.of(RUNTIME), 0x8, false, false);
    start(net8, notes, heapLike).close();
    assertThat(net8.asked)
        .containsExactly(
            IpcCommand.COLLECT_TRACING_4,
            IpcCommand.PROCESS_INFO_3,
            IpcCommand.PROCESS_INFO_2,
            IpcCommand.COLLECT_TRACING_3,
            IpcCommand.COLLECT_TRACING);
    assertThat(notes)
        .containsExactly(
            ".NET 8.0.31 cannot choose the rundown's keywords (CollectTracing4, .NET 9): the"
                + " session ends with the classic rundown (0x80020139) instead of 0x8",
            ".NET 8.0.31 cannot turn event stacks off (CollectTracing3, .NET 9): its events carry"
                + " their stacks, a little more work for it");
  }

  @Test
  void net9KnowsVersions3And4AndNothingIsGivenUp() {
    ScriptedRuntime net9 =
        new ScriptedRuntime(
            "9.0.20",
            Set.of(
                IpcCommand.COLLECT_TRACING,
                IpcCommand.COLLECT_TRACING_2,
                IpcCommand.COLLECT_TRACING_3,
                IpcCommand.COLLECT_TRACING_4));
    List<String> notes = new ArrayList<>();
    start(net9, notes, new EventPipeSessionConfig(256, List.of(RUNTIME), 0x8, false, false))
        .close();
    assertThat(net9.asked).containsExactly(IpcCommand.COLLECT_TRACING_4);
    assertThat(notes).isEmpty();
  }

  @Test
  void losslessIsNeverGivenUpAndTheErrorNamesTheRuntimeAndWhatItLacks() {
    ScriptedRuntime net10 =
        new ScriptedRuntime(
            "10.0.12",
            Set.of(
                IpcCommand.COLLECT_TRACING_5,
                IpcCommand.PROCESS_INFO_2,
                IpcCommand.COLLECT_TRACING));
    assertThatThrownBy(
            () ->
                start(
                    net10,
                    new ArrayList<>(),
                    new EventPipeSessionConfig(256, List.of(RUNTIME), 0, true, true)))
        .isInstanceOf(RuntimeTooOldException.class)
        .hasMessageStartingWith(
            ".NET 10.0.12 cannot block its threads rather than drop events when its buffer is full"
                + " (that needs CollectTracing6, .NET 11 or later)")
        .hasMessageNotContaining("too old");
  }
}
