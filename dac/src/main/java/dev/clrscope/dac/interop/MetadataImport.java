package dev.clrscope.dac.interop;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.clrscope.dac.interop.DacInterfaces.IMetaDataImport;
import dev.clrscope.dac.interop.DacInterfaces.IXCLRDataModule;

/**
 * A module's {@code IMetaDataImport}, from its {@code IXCLRDataModule}: the names of fields and
 * types by token. Not thread-safe: owning thread only.
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

  /** A field's name and attributes ({@code fdStatic} 0x10, {@code fdLiteral} 0x40). */
  public record FieldProps(String name, int attributes) {}

  /** Characters of a name asked for at most. */
  private static final int NAME_CHARS = 1024;

  public FieldProps fieldProps(int token) {
    Memory name = new Memory(2 * NAME_CHARS);
    Memory length = new Memory(4);
    Memory attrs = new Memory(4);
    Memory type = new Memory(4);
    int hr =
        md.call(
            IMetaDataImport.GetFieldProps,
            token,
            type,
            name,
            NAME_CHARS,
            length,
            attrs,
            Pointer.NULL,
            Pointer.NULL,
            Pointer.NULL,
            Pointer.NULL,
            Pointer.NULL);
    if (hr < 0) {
      return null;
    }
    return new FieldProps(SosDac.utf16(name, NAME_CHARS), attrs.getInt(0));
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
    Memory name = new Memory(2 * NAME_CHARS);
    Memory length = new Memory(4);
    Memory scope = new Memory(4);
    int hr = md.call(IMetaDataImport.GetTypeRefProps, token, scope, name, NAME_CHARS, length);
    return hr < 0 ? null : SosDac.utf16(name, NAME_CHARS);
  }
}
