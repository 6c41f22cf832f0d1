package dev.clrscope.cli.commands;

import dev.clrscope.heapwalk.SyntheticWalk;
import dev.clrscope.ipc.codec.IpcHeader;
import dev.clrscope.ipc.codec.PayloadWriter;
import dev.clrscope.ipc.protocol.CommandSet;
import dev.clrscope.ipc.protocol.DiagnosticServerError;
import dev.clrscope.ipc.protocol.IpcCommand;
import dev.clrscope.ipc.protocol.ServerResponse;
import dev.clrscope.nettrace.NetTraceWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A stand-in runtime for the build's training run: it answers on a Unix socket as a .NET runtime's
 * diagnostic server does for a heap snapshot (ResumeRuntime; CollectTracing, then the stream of a
 * small heap walk, {@link SyntheticWalk}; StopTracing, then the rundown and the stream's end), so
 * that {@code dump-heap} runs for real, and the classes and lambdas a heap snapshot loads (the IPC
 * session, the trace reader, the snapshot builder, the .gcdump writer) land in the AppCDS archive.
 * Anything else is answered "unknown command". Not a runtime: one session at a time.
 */
final class TrainingRuntime implements AutoCloseable {
  private static final long SESSION = 1;

  private final ServerSocketChannel server;
  private final Path path;
  private final AtomicReference<CountDownLatch> stopped = new AtomicReference<>();

  private TrainingRuntime(Path path) throws IOException {
    this.path = path;
    Files.deleteIfExists(path);
    server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(path));
    Thread accept = new Thread(this::accept, "clrscope-train-runtime");
    accept.setDaemon(true);
    accept.start();
  }

  /** Listens on {@code path} (a stale socket there is replaced). */
  static TrainingRuntime listen(Path path) throws IOException {
    return new TrainingRuntime(path);
  }

  private void accept() {
    try {
      while (true) {
        SocketChannel c = server.accept();
        Thread t = new Thread(() -> serve(c), "clrscope-train-connection");
        t.setDaemon(true);
        t.start();
      }
    } catch (IOException e) {
      // Closed when training ends.
    }
  }

  private void serve(SocketChannel c) {
    try (c;
        InputStream in = Channels.newInputStream(c);
        OutputStream out = Channels.newOutputStream(c)) {
      IpcHeader header = IpcHeader.decode(in.readNBytes(IpcHeader.SIZE), 0);
      in.readNBytes(header.payloadSize());
      IpcCommand command = command(header);
      if (command == IpcCommand.STOP_TRACING) {
        reply(out, new PayloadWriter().u64(SESSION).toByteArray());
        CountDownLatch latch = stopped.get();
        if (latch != null) {
          latch.countDown();
        }
      } else if (command == IpcCommand.RESUME_RUNTIME) {
        reply(out, new PayloadWriter().u32(0).toByteArray());
      } else if (command != null && command.name().startsWith("COLLECT_TRACING")) {
        CountDownLatch latch = new CountDownLatch(1);
        stopped.set(latch);
        reply(out, new PayloadWriter().u64(SESSION).toByteArray());
        NetTraceWriter w = NetTraceWriter.create(out, SyntheticWalk.header());
        SyntheticWalk.walk(w, SyntheticWalk.listOf(3000), List.of(), 1);
        w.flush();
        out.flush();
        if (latch.await(10, TimeUnit.SECONDS)) {
          SyntheticWalk.rundown(w);
        }
        w.close();
      } else {
        out.write(
            new IpcHeader(
                    IpcHeader.SIZE + 4, CommandSet.SERVER.code(), ServerResponse.ERROR.id(), 0)
                .encode());
        out.write(
            new PayloadWriter().u32(DiagnosticServerError.UNKNOWN_COMMAND.hresult()).toByteArray());
      }
    } catch (IOException | RuntimeException e) {
      // The client went away: training goes on.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static IpcCommand command(IpcHeader header) {
    for (IpcCommand command : IpcCommand.values()) {
      if (command.set().code() == header.commandSet() && command.id() == header.commandId()) {
        return command;
      }
    }
    return null;
  }

  private static void reply(OutputStream out, byte[] payload) throws IOException {
    out.write(
        new IpcHeader(
                IpcHeader.SIZE + payload.length,
                CommandSet.SERVER.code(),
                ServerResponse.OK.id(),
                0)
            .encode());
    out.write(payload);
    out.flush();
  }

  @Override
  public void close() throws IOException {
    server.close();
    Files.deleteIfExists(path);
  }
}
