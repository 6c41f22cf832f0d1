package dev.clrscope.dac.interop;

import com.sun.jna.Callback;
import com.sun.jna.CallbackReference;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.clrscope.dac.interop.DacInterfaces.ICLRDataTarget;
import dev.clrscope.dac.interop.DacInterfaces.ICLRRuntimeLocator;
import dev.clrscope.dac.interop.DacInterfaces.IUnknown;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The data target handed to the DAC: a native COM object ({@code ICLRDataTarget}, and {@code
 * ICLRRuntimeLocator} beside it) whose vtable entries are JNA callbacks into a {@link Source}, each
 * set by the method {@link DacInterfaces} declares for its slot.
 *
 * <p>A callback must never let an exception reach native code (JNA would then return 0, which is
 * {@code S_OK}, with an unwritten buffer): every body catches everything and answers {@code
 * E_FAIL}. The callbacks, vtables and objects stay strongly reachable from this instance, which the
 * owner keeps for as long as the DAC lives (the DAC is never unloaded). Reference counting is not
 * honoured: the objects live as long as this instance.
 */
public final class DataTargetObject {
  private static final int IMAGE_FILE_MACHINE_AMD64 = 0x8664;

  /** What the data target answers from. Called on the thread that calls into the DAC. */
  public interface Source {
    /**
     * Copies target memory at {@code address} into {@code dst}; returns the bytes copied (0 when
     * the first is unreadable).
     */
    int read(long address, byte[] dst, int length);

    /** The base address of the loaded module named {@code fileName} (no directory), or 0. */
    long imageBase(String fileName);

    /** Where libcoreclr.so is loaded. */
    long runtimeBase();

    /** The thread's registers as an AMD64 CONTEXT, or null for a thread the target lacks. */
    byte[] threadContext(int threadId);
  }

  /** Statistics of what the DAC asked, for tests and measurements. */
  public static final class Counters {
    public long reads;
    public long readBytes;
    public long contexts;
  }

  private final Source source;
  private final Counters counters = new Counters();
  private final List<Callback> keepAlive = new ArrayList<>();
  private final Memory target;
  private final Memory targetVtable;
  private final Memory locator;
  private final Memory locatorVtable;
  private byte[] readBuffer = new byte[1 << 16];

  public DataTargetObject(Source source) {
    this.source = source;
    targetVtable = new Memory(8L * ICLRDataTarget.ID.slotCount());
    target = new Memory(8);
    target.setPointer(0, targetVtable);
    locatorVtable = new Memory(8L * ICLRRuntimeLocator.ID.slotCount());
    locator = new Memory(8);
    locator.setPointer(0, locatorVtable);
    targetVtable.clear();
    locatorVtable.clear();

    QueryInterface qi = this::queryInterface;
    RefCount ref = self -> 1;
    for (Memory vtable : List.of(targetVtable, locatorVtable)) {
      set(vtable, IUnknown.QueryInterface, qi);
      set(vtable, IUnknown.AddRef, ref);
      set(vtable, IUnknown.Release, ref);
    }
    set(
        targetVtable,
        ICLRDataTarget.GetMachineType,
        (OutU32) (self, out) -> guard(() -> out.setInt(0, IMAGE_FILE_MACHINE_AMD64)));
    set(
        targetVtable,
        ICLRDataTarget.GetPointerSize,
        (OutU32) (self, out) -> guard(() -> out.setInt(0, 8)));
    set(targetVtable, ICLRDataTarget.GetImageBase, (GetImageBase) this::getImageBase);
    set(targetVtable, ICLRDataTarget.ReadVirtual, (ReadVirtual) this::readVirtual);
    set(
        targetVtable,
        ICLRDataTarget.WriteVirtual,
        (ReadVirtual) (self, a, b, n, w) -> Hresult.E_NOTIMPL);
    set(
        targetVtable,
        ICLRDataTarget.GetTLSValue,
        (GetTlsValue) (self, t, i, v) -> Hresult.E_NOTIMPL);
    set(
        targetVtable,
        ICLRDataTarget.SetTLSValue,
        (SetTlsValue) (self, t, i, v) -> Hresult.E_NOTIMPL);
    set(targetVtable, ICLRDataTarget.GetCurrentThreadID, (OutU32) (self, out) -> Hresult.E_NOTIMPL);
    set(targetVtable, ICLRDataTarget.GetThreadContext, (GetThreadContext) this::getThreadContext);
    set(
        targetVtable,
        ICLRDataTarget.SetThreadContext,
        (SetThreadContext) (self, t, n, c) -> Hresult.E_NOTIMPL);
    set(
        targetVtable,
        ICLRDataTarget.Request,
        (Request) (self, code, inSize, in, outSize, out) -> Hresult.E_NOTIMPL);
    set(locatorVtable, ICLRRuntimeLocator.GetRuntimeBase, (OutU64) this::getRuntimeBase);
    checkFilled(targetVtable, ICLRDataTarget.ID);
    checkFilled(locatorVtable, ICLRRuntimeLocator.ID);
  }

  /** The {@code ICLRDataTarget*} to pass to {@code CLRDataCreateInstance}. */
  public Pointer pointer() {
    return target;
  }

  /** What the DAC asked so far. */
  public Counters counters() {
    return counters;
  }

  private void set(Memory vtable, ComMethod method, Callback callback) {
    keepAlive.add(callback);
    vtable.setPointer(8L * method.slot(), CallbackReference.getFunctionPointer(callback));
  }

  // A slot left empty would be a null function the DAC jumps to.
  private static void checkFilled(Memory vtable, ComInterface<?> type) {
    for (int slot = 0; slot < type.slotCount(); slot++) {
      if (vtable.getPointer(8L * slot) == null) {
        throw new IllegalStateException(type.name() + " slot " + slot + " has no callback");
      }
    }
  }

  private interface Body {
    void run();
  }

  // Any exception becomes E_FAIL: nothing may unwind into the DAC.
  private static int guard(Body body) {
    try {
      body.run();
      return Hresult.S_OK;
    } catch (Throwable t) {
      return Hresult.E_FAIL;
    }
  }

  private int queryInterface(Pointer self, Pointer iid, Pointer out) {
    try {
      if (out == null) {
        return Hresult.E_POINTER;
      }
      if (IUnknown.ID.iid().matches(iid) || ICLRDataTarget.ID.iid().matches(iid)) {
        out.setPointer(0, target);
        return Hresult.S_OK;
      }
      if (ICLRRuntimeLocator.ID.iid().matches(iid)) {
        out.setPointer(0, locator);
        return Hresult.S_OK;
      }
      out.setPointer(0, null);
      return Hresult.E_NOINTERFACE;
    } catch (Throwable t) {
      return Hresult.E_FAIL;
    }
  }

  private int getImageBase(Pointer self, Pointer name, Pointer out) {
    try {
      String file = utf16z(name);
      long base = source.imageBase(file.substring(file.lastIndexOf('/') + 1));
      if (base == 0) {
        return Hresult.E_FAIL;
      }
      out.setLong(0, base);
      return Hresult.S_OK;
    } catch (Throwable t) {
      return Hresult.E_FAIL;
    }
  }

  private int readVirtual(Pointer self, long address, Pointer buffer, int size, Pointer read) {
    try {
      if (read != null) {
        read.setInt(0, 0);
      }
      if (size <= 0) {
        return size == 0 ? Hresult.S_OK : Hresult.E_INVALIDARG;
      }
      if (readBuffer.length < size) {
        readBuffer = new byte[Math.max(size, readBuffer.length * 2)];
      }
      int n = source.read(address, readBuffer, size);
      counters.reads++;
      if (n <= 0) {
        return Hresult.E_FAIL;
      }
      counters.readBytes += n;
      buffer.write(0, readBuffer, 0, n);
      if (read != null) {
        read.setInt(0, n);
      }
      return Hresult.S_OK;
    } catch (Throwable t) {
      return Hresult.E_FAIL;
    }
  }

  private int getThreadContext(Pointer self, int threadId, int flags, int size, Pointer context) {
    try {
      byte[] c = source.threadContext(threadId);
      counters.contexts++;
      if (c == null) {
        return Hresult.E_FAIL;
      }
      int n = Math.min(size, c.length);
      context.write(0, c, 0, n);
      if (size > n) {
        context.setMemory(n, size - (long) n, (byte) 0);
      }
      return Hresult.S_OK;
    } catch (Throwable t) {
      return Hresult.E_FAIL;
    }
  }

  private int getRuntimeBase(Pointer self, Pointer out) {
    try {
      long base = source.runtimeBase();
      if (base == 0) {
        return Hresult.E_FAIL;
      }
      out.setLong(0, base);
      return Hresult.S_OK;
    } catch (Throwable t) {
      return Hresult.E_FAIL;
    }
  }

  // A NUL-terminated WCHAR string: 2-byte UTF-16 on every platform the DAC runs on, which is not
  // JNA's 4-byte wchar_t on Linux.
  static String utf16z(Pointer p) {
    if (p == null) {
      return "";
    }
    int n = 0;
    while (n < 4096 && p.getShort(2L * n) != 0) {
      n++;
    }
    return new String(p.getByteArray(0, 2 * n), StandardCharsets.UTF_16LE);
  }

  public interface QueryInterface extends Callback {
    int invoke(Pointer self, Pointer iid, Pointer out);
  }

  public interface RefCount extends Callback {
    int invoke(Pointer self);
  }

  interface OutU32 extends Callback {
    int invoke(Pointer self, Pointer out);
  }

  interface OutU64 extends Callback {
    int invoke(Pointer self, Pointer out);
  }

  public interface GetImageBase extends Callback {
    int invoke(Pointer self, Pointer name, Pointer out);
  }

  public interface ReadVirtual extends Callback {
    int invoke(Pointer self, long address, Pointer buffer, int size, Pointer done);
  }

  public interface GetTlsValue extends Callback {
    int invoke(Pointer self, int thread, int index, Pointer value);
  }

  public interface SetTlsValue extends Callback {
    int invoke(Pointer self, int thread, int index, long value);
  }

  public interface GetThreadContext extends Callback {
    int invoke(Pointer self, int thread, int flags, int size, Pointer context);
  }

  public interface SetThreadContext extends Callback {
    int invoke(Pointer self, int thread, int size, Pointer context);
  }

  public interface Request extends Callback {
    int invoke(Pointer self, int code, int inSize, Pointer in, int outSize, Pointer out);
  }
}
