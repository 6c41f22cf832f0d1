package dev.clrscope.dac.interop;

/**
 * The C type of a structure's field on x86-64 Linux, as the DAC's headers use it: its size and its
 * alignment, which place the field.
 *
 * @param name the header's spelling
 * @param size its size in bytes
 * @param alignment its alignment in bytes
 */
public record CType(String name, int size, int alignment) {
  /** {@code BOOL}: a 32-bit int. */
  public static final CType BOOL = new CType("BOOL", 4, 4);

  /** {@code int}, {@code LONG}, {@code INT32}, {@code HRESULT} and the enums. */
  public static final CType INT32 = new CType("INT32", 4, 4);

  /** {@code DWORD}, {@code UINT}, {@code ULONG}, {@code mdToken}. */
  public static final CType UINT32 = new CType("UINT32", 4, 4);

  /** {@code WORD}. */
  public static final CType UINT16 = new CType("WORD", 2, 2);

  /** {@code ULONG64}, {@code DWORD64}. */
  public static final CType UINT64 = new CType("ULONG64", 8, 8);

  /** {@code CLRDATA_ADDRESS}: a target address, 64 bits whatever the target. */
  public static final CType ADDRESS = new CType("CLRDATA_ADDRESS", 8, 8);

  /** {@code BYTE}. */
  public static final CType BYTE = new CType("BYTE", 1, 1);

  /** {@code M128A}: 16 bytes aligned to 16. */
  public static final CType M128A = new CType("M128A", 16, 16);

  /** An array of {@code count} of this type. */
  public CType array(int count) {
    return new CType(name + "[" + count + "]", size * count, alignment);
  }

  /** This type aligned to {@code alignment} (a {@code DECLSPEC_ALIGN} member). */
  public CType alignedTo(int alignment) {
    return new CType(name, size, Math.max(this.alignment, alignment));
  }

  /** The type of a nested structure. */
  public static CType of(StructLayout<?> layout) {
    return new CType(layout.name(), layout.size(), layout.alignment());
  }

  /** Whether this is an array of {@code element}s (or one {@code element}). */
  boolean holds(CType element) {
    return size % element.size == 0 && alignment == element.alignment;
  }
}
