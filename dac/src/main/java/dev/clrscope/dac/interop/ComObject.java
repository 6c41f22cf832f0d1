package dev.clrscope.dac.interop;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;

/**
 * A COM interface pointer the DAC handed out: calls go through its vtable by slot number (IUnknown
 * is 0-2). It holds one reference, dropped by {@link #release}. Not thread-safe: used on the thread
 * that owns the DAC only.
 */
public final class ComObject {
  private static final int QUERY_INTERFACE = 0;
  private static final int RELEASE = 2;

  private final Pointer self;
  private final Function[] slots = new Function[128];
  private boolean released;

  public ComObject(Pointer self) {
    if (self == null) {
      throw new IllegalArgumentException("null interface pointer");
    }
    this.self = self;
  }

  /** The interface pointer. */
  public Pointer pointer() {
    return self;
  }

  /** Calls vtable slot {@code slot} with {@code this} and {@code args}; returns the HRESULT. */
  public int call(int slot, Object... args) {
    if (released) {
      throw new IllegalStateException("interface already released");
    }
    Object[] all = new Object[args.length + 1];
    all[0] = self;
    System.arraycopy(args, 0, all, 1, args.length);
    return function(slot).invokeInt(all);
  }

  private Function function(int slot) {
    Function f = slots[slot];
    if (f == null) {
      Pointer vtable = self.getPointer(0);
      f = Function.getFunction(vtable.getPointer(8L * slot));
      slots[slot] = f;
    }
    return f;
  }

  /** QueryInterface for {@code iid}: the interface, or null when the object does not have it. */
  public ComObject query(Guid iid) {
    Memory out = new Memory(8);
    out.setPointer(0, null);
    int hr = call(QUERY_INTERFACE, iid.toNative(), out);
    Pointer p = out.getPointer(0);
    return hr == Hresult.S_OK && p != null ? new ComObject(p) : null;
  }

  /** Drops this reference (once). */
  public void release() {
    if (!released) {
      call(RELEASE);
      released = true;
    }
  }
}
