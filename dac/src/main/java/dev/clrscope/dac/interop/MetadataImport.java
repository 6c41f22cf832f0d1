package dev.clrscope.dac.interop;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.clrscope.dac.interop.DacInterfaces.IMetaDataImport;
import dev.clrscope.dac.interop.DacInterfaces.IXCLRDataModule;

/**
 * A module's {@code IMetaDataImport}, from its {@code IXCLRDataModule}: the names of fields and
 * types by token, fields' signatures, type specifications, nesting. Not thread-safe: owning thread
 * only.
 */
public final class MetadataImport {
  private final ComObject<IMetaDataImport> md;

  private MetadataImport(ComObject<IMetaDataImport> md) {
    this.md = md;
  }

  /** The metadata of a module, or null. */
  public static MetadataImport of(ComObject<IXCLRDataModule> module) {
    ComObject<IMetaDataImport> md = module.query(IMetaDataImport.ID);
    return md == null ? null : new MetadataImport(md);
  }

  /**
   * A field's name, attributes ({@code fdStatic} 0x10, {@code fdLiteral} 0x40) and signature (its
   * declared type: {@code FIELD} then the type, ECMA-335 II.23.2.4).
   */
  public record FieldProps(String name, int attributes, byte[] signature) {}

  /** A signature longer than this is no field's. */
  private static final int MAX_SIGNATURE = 4096;

  /** Characters of a name asked for at most. */
  private static final int NAME_CHARS = 1024;

  public FieldProps fieldProps(int token) {
    Memory name = new Memory(2 * NAME_CHARS);
    Memory length = new Memory(4);
    Memory attrs = new Memory(4);
    Memory type = new Memory(4);
    Memory sig = new Memory(8);
    Memory sigLength = new Memory(4);
    sig.clear();
    sigLength.clear();
    int hr =
        md.call(
            IMetaDataImport.GetFieldProps,
            token,
            type,
            name,
            NAME_CHARS,
            length,
            attrs,
            sig,
            sigLength,
            Pointer.NULL,
            Pointer.NULL,
            Pointer.NULL);
    if (hr < 0) {
      return null;
    }
    return new FieldProps(
        SosDac.utf16(name, NAME_CHARS), attrs.getInt(0), blob(sig, sigLength.getInt(0)));
  }

  /**
   * The bytes a returned blob pointer points at (the DAC's copy of the metadata, in this process),
   * or an empty array for none.
   */
  private static byte[] blob(Memory pointer, int length) {
    Pointer p = pointer.getPointer(0);
    if (p == null || length <= 0 || length > MAX_SIGNATURE) {
      return new byte[0];
    }
    return p.getByteArray(0, length);
  }

  /** A type specification's signature (a generic instantiation, an array...), or empty. */
  public byte[] typeSpec(int token) {
    Memory sig = new Memory(8);
    Memory sigLength = new Memory(4);
    sig.clear();
    sigLength.clear();
    int hr = md.call(IMetaDataImport.GetTypeSpecFromToken, token, sig, sigLength);
    return hr < 0 ? new byte[0] : blob(sig, sigLength.getInt(0));
  }

  /** The type definition a nested type is declared in, or 0 when it is not nested. */
  public int enclosingClass(int typeDef) {
    Memory enclosing = new Memory(4);
    enclosing.clear();
    int hr = md.call(IMetaDataImport.GetNestedClassProps, typeDef, enclosing);
    return hr != 0 ? 0 : enclosing.getInt(0);
  }

  /** A type definition's full name. */
  public String typeDefName(int token) {
    Memory name = new Memory(2 * NAME_CHARS);
    Memory length = new Memory(4);
    Memory flags = new Memory(4);
    Memory extendz = new Memory(4);
    int hr =
        md.call(IMetaDataImport.GetTypeDefProps, token, name, NAME_CHARS, length, flags, extendz);
    return hr < 0 ? null : SosDac.utf16(name, NAME_CHARS);
  }

  /** A type reference's full name. */
  public String typeRefName(int token) {
    TypeRef r = typeRef(token);
    return r == null ? null : r.name();
  }

  /**
   * A type reference: its name, and its resolution scope (a module, an assembly, or for a nested
   * type the reference to the type it is declared in).
   */
  public record TypeRef(String name, int scope) {}

  public TypeRef typeRef(int token) {
    Memory name = new Memory(2 * NAME_CHARS);
    Memory length = new Memory(4);
    Memory scope = new Memory(4);
    scope.clear();
    int hr = md.call(IMetaDataImport.GetTypeRefProps, token, scope, name, NAME_CHARS, length);
    return hr < 0 ? null : new TypeRef(SosDac.utf16(name, NAME_CHARS), scope.getInt(0));
  }
}
