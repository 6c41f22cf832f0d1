package dev.clrscope.nettrace;

/**
 * Field type codes of EventSource metadata, mirroring the table of the format specification (the
 * .NET {@code System.TypeCode} values plus EventPipe's own additions).
 */
public enum TypeCode {
  /** 1: nested struct; followed in metadata by its own field list. */
  OBJECT(1, -1),
  /** 3: 4-byte Windows BOOL. */
  BOOLEAN32(3, 4),
  /** 4: one UTF-16 code unit. */
  CHAR16(4, 2),
  /** 5: signed byte. */
  SBYTE(5, 1),
  /** 6: unsigned byte. */
  BYTE(6, 1),
  /** 7: i16. */
  INT16(7, 2),
  /** 8: u16. */
  UINT16(8, 2),
  /** 9: i32. */
  INT32(9, 4),
  /** 10: u32. */
  UINT32(10, 4),
  /** 11: i64. */
  INT64(11, 8),
  /** 12: u64. */
  UINT64(12, 8),
  /** 13: f32. */
  SINGLE(13, 4),
  /** 14: f64. */
  DOUBLE(14, 8),
  /** 15: 16-byte .NET decimal. */
  DECIMAL(15, 16),
  /** 16: DateTime as a FILETIME (100 ns ticks since 1601-01-01 UTC). */
  DATE_TIME(16, 8),
  /** 17: 16-byte GUID. */
  GUID(17, 16),
  /** 18: NUL-terminated UTF-16 string. */
  STRING(18, -1),
  /** 19: u16 element count, then the elements (V2 field layout and V6 only). */
  ARRAY(19, -1),
  /** 20 (V6): zigzag LEB128 signed integer. */
  VAR_INT(20, -1),
  /** 21 (V6): LEB128 unsigned integer. */
  VAR_UINT(21, -1),
  /** 22 (V6): array whose element count is in the metadata. */
  FIXED_LENGTH_ARRAY(22, -1),
  /** 23 (V6): one UTF-8 code unit. */
  UTF8_CHAR(23, 1),
  /** 24 (V6): u32 (size << 16 | offset relative to the field end) locating variable data. */
  REL_LOC(24, 4),
  /** 25 (V6): u32 (size << 16 | offset from payload start) locating variable data. */
  DATA_LOC(25, 4),
  /** 26 (V6): 1-byte boolean. */
  BOOLEAN8(26, 1);

  private static final TypeCode[] BY_CODE = new TypeCode[27];

  static {
    for (TypeCode t : values()) {
      BY_CODE[t.code] = t;
    }
  }

  private final int code;
  private final int fixedSize;

  TypeCode(int code, int fixedSize) {
    this.code = code;
    this.fixedSize = fixedSize;
  }

  /** The numeric code as written in the file. */
  public int code() {
    return code;
  }

  /** Encoded size in bytes, or -1 when variable. */
  public int fixedSize() {
    return fixedSize;
  }

  /** The type with this code, or null if the code is not in the table. */
  public static TypeCode fromCode(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }
}
