package dev.clrscope.ipc.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.clrscope.ipc.ConnectionClosedException;
import dev.clrscope.ipc.EndpointAccessDeniedException;
import dev.clrscope.ipc.IpcTimeoutException;
import dev.clrscope.ipc.TargetNotFoundException;
import dev.clrscope.ipc.codec.IpcFrames;
import dev.clrscope.ipc.discovery.EndpointLocator;
import dev.clrscope.ipc.protocol.IpcCommand;
import dev.clrscope.ipc.testing.Hex;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

class NamedPipeConnectionTest {
  private static final int ERROR_FILE_NOT_FOUND = 2;
  private static final int ERROR_ACCESS_DENIED = 5;
  private static final int ERROR_INVALID_HANDLE = 6;
  private static final int ERROR_BROKEN_PIPE = 109;
  private static final int ERROR_PIPE_BUSY = 231;
  private static final int ERROR_OPERATION_ABORTED = 995;
  private static final String PIPE_1234 = "\\\\.\\pipe\\dotnet-diagnostic-1234";

  /** An in-memory stand-in for kernel32's pipe calls. */
  static final class FakePipe implements NamedPipeConnection.PipeApi {
    final Object handle = new Object();

    /** Results of successive open calls: null for success, else the error code. */
    final Deque<Integer> openErrors = new ArrayDeque<>();

    final List<String> opened = new ArrayList<>();
    final List<String> waited = new ArrayList<>();
    final List<Integer> waitMillis = new ArrayList<>();
    final ByteArrayOutputStream written = new ByteArrayOutputStream();
    byte[] inbound = new byte[0];
    int pos;
    int readChunk = Integer.MAX_VALUE;
    int writeChunk = Integer.MAX_VALUE;
    int reads;
    int writes;

    /** What a read at the end of inbound does: 0 for EOF, else fail with this error. */
    int endError;

    int writeError;
    boolean blockReads;
    int closes;
    volatile boolean closed;
    int lastError;

    @Override
    public Object open(String path) {
      opened.add(path);
      Integer error = openErrors.poll();
      if (error != null) {
        lastError = error;
        return null;
      }
      return handle;
    }

    @Override
    public boolean waitForPipe(String path, int millis) {
      waited.add(path);
      waitMillis.add(millis);
      return true;
    }

    @Override
    public synchronized int read(Object h, byte[] buffer, int len) {
      assertThat(h).isSameAs(handle);
      reads++;
      if (blockReads) {
        while (!closed) {
          try {
            wait();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
          }
        }
        lastError = ERROR_OPERATION_ABORTED;
        return -1;
      }
      if (pos == inbound.length) {
        if (endError != 0) {
          lastError = endError;
          return -1;
        }
        return 0;
      }
      int n = Math.min(Math.min(len, readChunk), inbound.length - pos);
      System.arraycopy(inbound, pos, buffer, 0, n);
      pos += n;
      return n;
    }

    @Override
    public int write(Object h, byte[] buffer, int len) {
      writes++;
      if (writeError != 0) {
        lastError = writeError;
        return -1;
      }
      int n = Math.min(len, writeChunk);
      written.write(buffer, 0, n);
      return n;
    }

    @Override
    public synchronized void close(Object h) {
      closes++;
      closed = true;
      notifyAll();
    }

    @Override
    public int lastError() {
      return lastError;
    }
  }

  private static NamedPipeConnection connect(FakePipe api) {
    return NamedPipeConnection.connect(api, EndpointLocator.pipeFor(1234), Duration.ofSeconds(5));
  }

  @Test
  void pipeNameForAPid() {
    assertThat(EndpointLocator.pipeFor(1234).name()).isEqualTo("dotnet-diagnostic-1234");
    assertThat(EndpointLocator.pipeFor(1234).fullPath()).isEqualTo(PIPE_1234);
    assertThat(EndpointLocator.pipeFor(1234).describe()).isEqualTo(PIPE_1234);
  }

  @Test
  void connectsToTheFullPipePath() {
    FakePipe api = new FakePipe();
    try (NamedPipeConnection c = connect(api)) {
      assertThat(api.opened).containsExactly(PIPE_1234);
      assertThat(c.description()).isEqualTo(PIPE_1234);
      assertThat(api.waited).isEmpty();
    }
    assertThat(api.closes).isEqualTo(1);
  }

  @Test
  void missingPipeIsTargetNotFound() {
    FakePipe api = new FakePipe();
    api.openErrors.add(ERROR_FILE_NOT_FOUND);
    assertThatThrownBy(() -> connect(api))
        .isInstanceOf(TargetNotFoundException.class)
        .hasMessageContaining(PIPE_1234);
    assertThat(api.waited).isEmpty();
  }

  @Test
  void accessDeniedNamesWhatToDo() {
    FakePipe api = new FakePipe();
    api.openErrors.add(ERROR_ACCESS_DENIED);
    assertThatThrownBy(() -> connect(api))
        .isInstanceOf(EndpointAccessDeniedException.class)
        .hasMessageContaining("access denied to " + PIPE_1234)
        .hasMessageContaining("administrator");
  }

  @Test
  void busyPipeIsAwaitedThenOpened() {
    FakePipe api = new FakePipe();
    api.openErrors.add(ERROR_PIPE_BUSY);
    api.openErrors.add(ERROR_PIPE_BUSY);
    try (NamedPipeConnection c = connect(api)) {
      assertThat(c.description()).isEqualTo(PIPE_1234);
    }
    assertThat(api.opened).containsExactly(PIPE_1234, PIPE_1234, PIPE_1234);
    assertThat(api.waited).containsExactly(PIPE_1234, PIPE_1234);
    assertThat(api.waitMillis).allSatisfy(ms -> assertThat(ms).isBetween(1, 5000));
  }

  @Test
  void pipeBusyBeyondTheTimeoutTimesOut() {
    FakePipe api = new FakePipe();
    for (int i = 0; i < 1000; i++) {
      api.openErrors.add(ERROR_PIPE_BUSY);
    }
    assertThatThrownBy(
            () -> NamedPipeConnection.connect(api, EndpointLocator.pipeFor(1234), Duration.ZERO))
        .isInstanceOf(IpcTimeoutException.class)
        .hasMessageContaining("busy pipe " + PIPE_1234);
  }

  @Test
  void otherOpenErrorsAreReportedWithTheirCode() {
    FakePipe api = new FakePipe();
    api.openErrors.add(1450);
    assertThatThrownBy(() -> connect(api))
        .isInstanceOf(ConnectionClosedException.class)
        .hasMessageContaining("Win32 error 1450");
  }

  @Test
  void requestAndReplyRoundTripThroughTheFrames() {
    FakePipe api = new FakePipe();
    api.inbound = Hex.concat(Hex.header(28, 0xFF, 0x00), Hex.u64(77));
    try (NamedPipeConnection c = connect(api)) {
      IpcFrames.writeRequest(c, IpcCommand.PROCESS_INFO, new byte[0]);
      assertThat(Hex.of(api.written.toByteArray()))
          .isEqualTo("44 4f 54 4e 45 54 5f 49 50 43 5f 56 31 00 14 00 04 00 00 00");
      assertThat(IpcFrames.readReply(c, IpcCommand.PROCESS_INFO)).isEqualTo(Hex.u64(77));
    }
  }

  @Test
  void readsSplitAcrossSmallChunksAreReassembled() {
    FakePipe api = new FakePipe();
    byte[] payload = Hex.bytes("01 02 03 04 05 06 07 08 09 0a 0b");
    api.inbound = Hex.concat(Hex.header(20 + payload.length, 0xFF, 0x00), payload);
    api.readChunk = 3;
    try (NamedPipeConnection c = connect(api)) {
      assertThat(IpcFrames.readReply(c, IpcCommand.PROCESS_INFO)).isEqualTo(payload);
    }
    assertThat(api.reads).isEqualTo(7 + 4); // 20 bytes in 3s, then 11 bytes in 3s
  }

  @Test
  void partialWritesAreCompleted() {
    FakePipe api = new FakePipe();
    api.writeChunk = 7;
    byte[] request = IpcFrames.encodeRequest(IpcCommand.STOP_TRACING, Hex.u64(0x0102030405060708L));
    try (NamedPipeConnection c = connect(api)) {
      c.write(request);
    }
    assertThat(api.written.toByteArray()).isEqualTo(request);
    assertThat(api.writes).isEqualTo(4);
  }

  @Test
  void failedWriteIsConnectionClosed() {
    FakePipe api = new FakePipe();
    api.writeError = ERROR_BROKEN_PIPE;
    try (NamedPipeConnection c = connect(api)) {
      assertThatThrownBy(() -> c.write(new byte[3]))
          .isInstanceOf(ConnectionClosedException.class)
          .hasMessageContaining("while sending a request")
          .hasMessageContaining("Win32 error 109");
    }
  }

  @Test
  void brokenPipeMidReplyIsConnectionClosed() {
    FakePipe api = new FakePipe();
    api.inbound = Hex.concat(Hex.header(28, 0xFF, 0x00), Hex.bytes("01 02 03"));
    api.endError = ERROR_BROKEN_PIPE;
    try (NamedPipeConnection c = connect(api)) {
      assertThatThrownBy(() -> IpcFrames.readReply(c, IpcCommand.PROCESS_INFO))
          .isInstanceOf(ConnectionClosedException.class)
          .hasMessageContaining("after 3 of 8 bytes");
    }
  }

  @Test
  void endOfStreamMidReplyIsConnectionClosed() {
    FakePipe api = new FakePipe();
    api.inbound = Hex.bytes("44 4f 54 4e");
    try (NamedPipeConnection c = connect(api)) {
      assertThatThrownBy(() -> IpcFrames.readReply(c, IpcCommand.PROCESS_INFO))
          .isInstanceOf(ConnectionClosedException.class)
          .hasMessageContaining("after 4 of 20 bytes");
    }
  }

  @Test
  void otherReadErrorsAreReportedWithTheirCode() {
    FakePipe api = new FakePipe();
    api.endError = ERROR_INVALID_HANDLE;
    try (NamedPipeConnection c = connect(api)) {
      assertThatThrownBy(() -> c.readFully(new byte[4], "a reply"))
          .isInstanceOf(ConnectionClosedException.class)
          .hasMessageContaining("ReadFile failed: Win32 error 6");
    }
  }

  @Test
  void closeIsIdempotentAndEndsReads() {
    FakePipe api = new FakePipe();
    api.inbound = new byte[10];
    NamedPipeConnection c = connect(api);
    c.close();
    c.close();
    assertThat(api.closes).isEqualTo(1);
    assertThatThrownBy(() -> c.readFully(new byte[1], "a byte"))
        .isInstanceOf(ConnectionClosedException.class);
    assertThat(api.reads).isZero();
  }

  @Test
  void deadlineCancelsABlockedRead() {
    FakePipe api = new FakePipe();
    api.blockReads = true;
    assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () -> {
          try (NamedPipeConnection c = connect(api)) {
            c.setDeadline(Duration.ofMillis(100), "the reply to ProcessInfo");
            long start = System.nanoTime();
            assertThatThrownBy(() -> c.readFully(new byte[20], "the reply"))
                .isInstanceOf(IpcTimeoutException.class)
                .hasMessageContaining("timed out waiting for the reply to ProcessInfo")
                .hasMessageContaining(PIPE_1234);
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                .isBetween(Duration.ofMillis(80), Duration.ofSeconds(3));
          }
        });
  }
}
