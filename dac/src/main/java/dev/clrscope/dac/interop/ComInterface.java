package dev.clrscope.dac.interop;

import java.util.List;

/**
 * A COM interface as {@link DacInterfaces} declares it: its name, its interface id, the interface
 * it extends and its own methods in order. Its vtable holds IUnknown's three methods, then those of
 * the interfaces it extends, then its own.
 *
 * @param <M> the enum of its methods
 */
public final class ComInterface<M extends Enum<M> & ComMethod> {
  private final Class<M> methods;
  private final Guid iid;
  private final ComInterface<?> base;
  private final int firstSlot;

  private ComInterface(Class<M> methods, Guid iid, ComInterface<?> base) {
    this.methods = methods;
    this.iid = iid;
    this.base = base;
    this.firstSlot = base == null ? 0 : base.slotCount();
  }

  /**
   * Declares an interface.
   *
   * @param methods its methods, in the IDL's order
   * @param iid its interface id
   * @param base the interface it extends ({@link DacInterfaces.IUnknown#ID} at the root)
   */
  public static <M extends Enum<M> & ComMethod> ComInterface<M> of(
      Class<M> methods, String iid, ComInterface<?> base) {
    return new ComInterface<>(methods, Guid.of(iid), base);
  }

  /** The name the IDL gives it. */
  public String name() {
    return methods.getSimpleName();
  }

  /** Its interface id. */
  public Guid iid() {
    return iid;
  }

  /** The interface it extends, or null for IUnknown. */
  public ComInterface<?> base() {
    return base;
  }

  /** The slot of its first own method. */
  public int firstSlot() {
    return firstSlot;
  }

  /** How many slots its vtable has: its own methods and every inherited one. */
  public int slotCount() {
    return firstSlot + methods.getEnumConstants().length;
  }

  /** Its own methods in order. */
  public List<M> methods() {
    return List.of(methods.getEnumConstants());
  }

  /** Whether it is {@code other} or extends it. */
  public boolean isA(ComInterface<?> other) {
    for (ComInterface<?> i = this; i != null; i = i.base) {
      if (i == other) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return name() + " " + iid;
  }
}
