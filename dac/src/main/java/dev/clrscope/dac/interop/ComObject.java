package dev.clrscope.dac.interop;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;

/**
 * A COM interface pointer the DAC handed out, of a known interface: a call names its method ({@code
 * sos.call(ISOSDacInterface.GetMethodTableData, mt, data)}) and goes through the vtable slot the
 * method's declaration gives. It holds one reference, dropped by {@link #release}. Not thread-safe:
 * used on the thread that owns the DAC only.
 *
 * @param <M> the methods of its interface
 */
public final class ComObject<M extends Enum<M> & ComMethod> {
  private final Pointer self;
  private final ComInterface<M> type;
  private final Function[] functions;
  private boolean released;

  /** Wraps an interface pointer of interface {@code type}. */
  public ComObject(Pointer self, ComInterface<M> type) {
    if (self == null) {
      throw new IllegalArgumentException("null interface pointer");
    }
    this.self = self;
    this.type = type;
    this.functions = new Function[type.slotCount()];
  }

  /** The interface pointer. */
  public Pointer pointer() {
    return self;
  }

  /** Its interface. */
  public ComInterface<M> type() {
    return type;
  }

  /** Calls {@code method} with {@code this} and {@code args}; returns the HRESULT. */
  public int call(M method, Object... args) {
    return invoke(method.slot(), args);
  }

  /**
   * Calls a method this interface inherits (an enumerator's {@code ISOSEnum.GetCount}); returns the
   * HRESULT.
   *
   * @throws IllegalArgumentException when the method is not this interface's or an ancestor's
   */
  public int callInherited(ComMethod method, Object... args) {
    if (!type.isA(method.declaredBy())) {
      throw new IllegalArgumentException(method.name() + " is not a method of " + type.name());
    }
    return invoke(method.slot(), args);
  }

  private int invoke(int slot, Object[] args) {
    if (released) {
      throw new IllegalStateException("interface already released");
    }
    Object[] all = new Object[args.length + 1];
    all[0] = self;
    System.arraycopy(args, 0, all, 1, args.length);
    return function(slot).invokeInt(all);
  }

  private Function function(int slot) {
    Function f = functions[slot];
    if (f == null) {
      Pointer vtable = self.getPointer(0);
      f = Function.getFunction(vtable.getPointer(8L * slot));
      functions[slot] = f;
    }
    return f;
  }

  /**
   * QueryInterface for {@code other}: that interface of the same object, or null when it has none.
   */
  public <N extends Enum<N> & ComMethod> ComObject<N> query(ComInterface<N> other) {
    Memory out = new Memory(8);
    out.setPointer(0, null);
    int hr =
        invoke(
            DacInterfaces.IUnknown.QueryInterface.slot(),
            new Object[] {other.iid().toNative(), out});
    Pointer p = out.getPointer(0);
    return hr == Hresult.S_OK && p != null ? new ComObject<>(p, other) : null;
  }

  /** Drops this reference (once). */
  public void release() {
    if (!released) {
      invoke(DacInterfaces.IUnknown.Release.slot(), new Object[0]);
      released = true;
    }
  }

  @Override
  public String toString() {
    return type.name() + "@" + self;
  }
}
