package dev.clrscope.dac.interop;

/**
 * One method of a COM interface: a constant of that interface's enum in {@link DacInterfaces},
 * declared in its IDL's order, so a call names its method and its vtable slot follows from where it
 * is declared.
 */
public interface ComMethod {
  /** The method's name as the IDL spells it. */
  String name();

  /** Its place among the interface's own methods. */
  int ordinal();

  /** The interface that declares it. */
  ComInterface<?> declaredBy();

  /** Its vtable slot: after IUnknown's three and the methods of the interfaces it extends. */
  default int slot() {
    return declaredBy().firstSlot() + ordinal();
  }
}
