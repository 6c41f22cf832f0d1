package dev.clrscope.ipc.transport;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.platform.win32.WinBase;
import com.sun.jna.platform.win32.WinError;
import com.sun.jna.platform.win32.WinNT;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.win32.StdCallLibrary;
import com.sun.jna.win32.W32APIOptions;
import dev.clrscope.ipc.ConnectionClosedException;
import dev.clrscope.ipc.EndpointAccessDeniedException;
import dev.clrscope.ipc.IpcTimeoutException;
import dev.clrscope.ipc.TargetNotFoundException;
import java.io.IOException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection over a Windows named pipe, through JNA.
 *
 * <p>The pipe is opened in synchronous (blocking) mode. A deadline aborts a blocked read with
 * {@code CancelIoEx}, which, unlike closing the handle, reliably wakes a thread blocked in {@code
 * ReadFile}.
 */
public final class NamedPipeConnection extends IpcConnection {
  private static final Logger log = LoggerFactory.getLogger(NamedPipeConnection.class);

  /** The few kernel32 calls a pipe client needs; an interface so tests can stand in for Windows. */
  public interface PipeApi {
    /** Opens the pipe; {@code null} and a Win32 error code on failure. */
    Object open(String path);

    /** Waits for a busy pipe to accept connections, up to {@code millis}. */
    boolean waitForPipe(String path, int millis);

    /** Reads into the buffer; the count read, 0 at end of stream; -1 with an error code. */
    int read(Object handle, byte[] buffer, int len);

    /** Writes the buffer; the count written, or -1. */
    int write(Object handle, byte[] buffer, int len);

    /** Cancels pending I/O on the handle and closes it. */
    void close(Object handle);

    /** The last Win32 error code on this thread. */
    int lastError();
  }

  private final PipeApi api;
  private final Object handle;
  private volatile boolean closed;

  private NamedPipeConnection(PipeApi api, Object handle, String description) {
    super(description);
    this.api = api;
    this.handle = handle;
  }

  /** Opens {@code \\.\pipe\NAME} through kernel32. */
  public static NamedPipeConnection connect(IpcEndpoint.NamedPipe pipe, Duration timeout) {
    return connect(Kernel32Pipes.INSTANCE, pipe, timeout);
  }

  /** Opens a pipe through the given API; waits while the pipe is busy, up to the timeout. */
  public static NamedPipeConnection connect(
      PipeApi api, IpcEndpoint.NamedPipe pipe, Duration timeout) {
    String path = pipe.fullPath();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Object handle = api.open(path);
      if (handle != null) {
        log.debug("connected to {}", path);
        return new NamedPipeConnection(api, handle, path);
      }
      int error = api.lastError();
      log.debug("opening {} failed: Win32 error {}", path, error);
      if (error == WinError.ERROR_FILE_NOT_FOUND) {
        throw new TargetNotFoundException(
            "no diagnostic pipe " + path + ": is the process running, and is it a .NET process?");
      }
      if (error == WinError.ERROR_ACCESS_DENIED) {
        throw new EndpointAccessDeniedException(
            "access denied to "
                + path
                + ": run clrscope as the user that started the target, or as an administrator",
            null);
      }
      long left = (deadline - System.nanoTime()) / 1_000_000;
      if (error != WinError.ERROR_PIPE_BUSY || left <= 0) {
        if (error == WinError.ERROR_PIPE_BUSY) {
          throw new IpcTimeoutException(
              "timed out waiting for the busy pipe " + path + " to accept a connection");
        }
        throw new ConnectionClosedException(
            "could not open " + path + ": Win32 error " + error, null);
      }
      log.debug("{} is busy: waiting up to {} ms for it", path, left);
      api.waitForPipe(path, (int) Math.min(left, Integer.MAX_VALUE));
    }
  }

  @Override
  protected int readRaw(byte[] buffer, int offset, int len) throws IOException {
    if (closed) {
      return -1;
    }
    byte[] target = offset == 0 ? buffer : new byte[len];
    int n = api.read(handle, target, len);
    if (n < 0) {
      int error = api.lastError();
      if (closed
          || error == WinError.ERROR_BROKEN_PIPE
          || error == WinError.ERROR_OPERATION_ABORTED) {
        return -1;
      }
      throw new IOException("ReadFile failed: Win32 error " + error);
    }
    if (n == 0) {
      return -1;
    }
    if (target != buffer) {
      System.arraycopy(target, 0, buffer, offset, n);
    }
    return n;
  }

  @Override
  protected void writeRaw(byte[] buffer, int offset, int len) throws IOException {
    byte[] rest = offset == 0 && len == buffer.length ? buffer : copy(buffer, offset, len);
    int done = 0;
    while (done < rest.length) {
      byte[] chunk = done == 0 ? rest : copy(rest, done, rest.length - done);
      int n = api.write(handle, chunk, chunk.length);
      if (n <= 0) {
        throw new IOException("WriteFile failed: Win32 error " + api.lastError());
      }
      done += n;
    }
  }

  private static byte[] copy(byte[] b, int offset, int len) {
    byte[] c = new byte[len];
    System.arraycopy(b, offset, c, 0, len);
    return c;
  }

  @Override
  protected void abort() {
    if (!closed) {
      closed = true;
      api.close(handle);
    }
  }

  /** kernel32 bindings: the calls {@link PipeApi} needs, declared here to keep the set small. */
  interface Kernel32Calls extends StdCallLibrary {
    WinNT.HANDLE CreateFile(
        String name,
        int access,
        int share,
        WinBase.SECURITY_ATTRIBUTES security,
        int creation,
        int flags,
        WinNT.HANDLE template);

    boolean WaitNamedPipe(String name, int timeout);

    boolean ReadFile(
        WinNT.HANDLE file, byte[] buffer, int len, IntByReference read, Pointer overlapped);

    boolean WriteFile(
        WinNT.HANDLE file, byte[] buffer, int len, IntByReference written, Pointer overlapped);

    boolean CancelIoEx(WinNT.HANDLE file, Pointer overlapped);

    boolean CloseHandle(WinNT.HANDLE file);
  }

  /** {@link PipeApi} over the real kernel32, loaded on first use (so only on Windows). */
  static final class Kernel32Pipes implements PipeApi {
    static final Kernel32Pipes INSTANCE = new Kernel32Pipes();
    private volatile Kernel32Calls k32;

    private Kernel32Calls k32() {
      Kernel32Calls k = k32;
      if (k == null) {
        k = Native.load("kernel32", Kernel32Calls.class, W32APIOptions.DEFAULT_OPTIONS);
        k32 = k;
      }
      return k;
    }

    @Override
    public Object open(String path) {
      WinNT.HANDLE h =
          k32()
              .CreateFile(
                  path,
                  WinNT.GENERIC_READ | WinNT.GENERIC_WRITE,
                  0,
                  null,
                  WinNT.OPEN_EXISTING,
                  0,
                  null);
      return WinBase.INVALID_HANDLE_VALUE.equals(h) ? null : h;
    }

    @Override
    public boolean waitForPipe(String path, int millis) {
      return k32().WaitNamedPipe(path, millis);
    }

    @Override
    public int read(Object handle, byte[] buffer, int len) {
      IntByReference n = new IntByReference();
      return k32().ReadFile((WinNT.HANDLE) handle, buffer, len, n, null) ? n.getValue() : -1;
    }

    @Override
    public int write(Object handle, byte[] buffer, int len) {
      IntByReference n = new IntByReference();
      return k32().WriteFile((WinNT.HANDLE) handle, buffer, len, n, null) ? n.getValue() : -1;
    }

    @Override
    public void close(Object handle) {
      k32().CancelIoEx((WinNT.HANDLE) handle, null);
      k32().CloseHandle((WinNT.HANDLE) handle);
    }

    @Override
    public int lastError() {
      return Native.getLastError();
    }
  }
}
