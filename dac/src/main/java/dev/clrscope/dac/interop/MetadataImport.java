package dev.clrscope.dac.interop;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;

/**
 * A module's {@code IMetaDataImport}, from its {@code IXCLRDataModule}: the names of fields and
 * types by token. Not thread-safe: owning thread only.
 */
public final class MetadataImport {
  static final Guid IID_IMETADATA_IMPORT = Guid.of("7dac8207-d3ae-4c75-9b67-92801a497d44");

  private final ComObject md;

  private MetadataImport(ComObject md) {
    this.md = md;
  }

  /** The metadata of a module (its IXCLRDataModule), or null. */
  public static MetadataImport of(ComObject module) {
    ComObject md = module.query(IID_IMETADATA_IMPORT);
    return md == null ? null : new MetadataImport(md);
  }

  /** A field's name and attributes ({@code fdStatic} 0x10, {@code fdLiteral} 0x40). */
  public record FieldProps(String name, int attributes) {}

  /** Slot 57, GetFieldProps. */
  public FieldProps fieldProps(int token) {
    Memory name = new Memory(2 * 1024);
    Memory length = new Memory(4);
    Memory attrs = new Memory(4);
    Memory type = new Memory(4);
    int hr =
        md.call(
            57,
            token,
            type,
            name,
            1024,
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
    return new FieldProps(SosDac.utf16(name, 1024), attrs.getInt(0));
  }

  /** Slot 12, GetTypeDefProps: a type definition's full name. */
  public String typeDefName(int token) {
    Memory name = new Memory(2 * 1024);
    Memory length = new Memory(4);
    Memory flags = new Memory(4);
    Memory extendz = new Memory(4);
    int hr = md.call(12, token, name, 1024, length, flags, extendz);
    return hr < 0 ? null : SosDac.utf16(name, 1024);
  }

  /** Slot 14, GetTypeRefProps: a type reference's full name. */
  public String typeRefName(int token) {
    Memory name = new Memory(2 * 1024);
    Memory length = new Memory(4);
    Memory scope = new Memory(4);
    int hr = md.call(14, token, scope, name, 1024, length);
    return hr < 0 ? null : SosDac.utf16(name, 1024);
  }
}
