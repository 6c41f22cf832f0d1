package dev.clrscope.symbols;

import dev.clrscope.nettrace.InputFile;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The type definitions of a managed assembly, by metadata token, named whole: namespace, each
 * enclosing type before a {@code +}, generic arities kept ({@code
 * System.Collections.Generic.Dictionary`2+Entry}). Read from the file's ECMA-335 metadata (the CLI
 * header, the metadata root, the {@code #~} tables: TypeDef and NestedClass) with every offset,
 * size and index checked against the bytes there: a file that is no assembly, or a damaged one, is
 * a {@link PdbFormatException}.
 *
 * <p>The runtime's heap-walk events name a nested type alone ({@code Entry}, {@code <>c}) with its
 * module and token; this names it as the DAC and dotnet-dump do.
 */
public final class TypeDefinitions {
  /** No assembly needs more; a bigger file is refused unread. */
  private static final long MAX_FILE_BYTES = 1L << 30;

  private static final int TYPE_DEF = 0x02;
  private static final int NESTED_CLASS = 0x29;

  private final PdbBytes strings;
  private final PdbBytes typeDefs;
  private final int typeDefRows;
  private final int typeDefRowSize;
  private final boolean wideStrings;

  /** Each type-def row's enclosing row (0: not nested), by row. */
  private final int[] enclosing;

  private TypeDefinitions(
      PdbBytes strings,
      PdbBytes typeDefs,
      int typeDefRows,
      int typeDefRowSize,
      boolean wideStrings,
      int[] enclosing) {
    this.strings = strings;
    this.typeDefs = typeDefs;
    this.typeDefRows = typeDefRows;
    this.typeDefRowSize = typeDefRowSize;
    this.wideStrings = wideStrings;
    this.enclosing = enclosing;
  }

  /** Reads an assembly's file (a regular file, at most 1 GB). */
  public static TypeDefinitions read(Path file) throws IOException, PdbFormatException {
    return of(InputFile.readAllBytes(file, MAX_FILE_BYTES));
  }

  /** Reads an assembly laid out as its file is. */
  public static TypeDefinitions of(byte[] file) throws PdbFormatException {
    PeImage image;
    byte[] cli;
    PdbBytes root;
    try {
      PeDebugInfo.Source source =
          (offset, dst) -> {
            if (offset < 0 || offset > file.length - dst.length) {
              return false;
            }
            System.arraycopy(file, (int) offset, dst, 0, dst.length);
            return true;
          };
      image = PeImage.read(source, file.length, false);
      long[] cliDirectory = image.directory(PeImage.CLI_HEADER);
      if (cliDirectory == null) {
        throw new PdbFormatException("not a managed assembly (no CLI header)");
      }
      cli = image.bytes(image.offsetOf(cliDirectory[0], "the CLI header"), 16, "the CLI header");
      long metadataRva = PeImage.le32(cli, 8);
      long metadataSize = PeImage.le32(cli, 12);
      long at = image.offsetOf(metadataRva, "the metadata");
      root = PdbBytes.of(file, "the assembly").slice(at, metadataSize, "the metadata");
    } catch (IOException e) {
      throw new PdbFormatException("the assembly cannot be read (" + e.getMessage() + ")");
    }
    PdbBytes tables = null;
    PdbBytes strings = null;
    for (MetadataStreams.Stream stream : MetadataStreams.of(root)) {
      switch (stream.name()) {
        case "#~", "#-" ->
            tables = root.slice(stream.offset(), stream.size(), "the " + stream.name() + " stream");
        case "#Strings" ->
            strings = root.slice(stream.offset(), stream.size(), "the #Strings heap");
        default -> {}
      }
    }
    if (tables == null || strings == null) {
      throw new PdbFormatException("no #~ stream or no #Strings heap");
    }
    int heapSizes = tables.u8(6, "the heap sizes");
    long[] rows = new long[64];
    int present = rowCounts(tables, rows);
    long tablesAt = 24 + 4L * present + ((heapSizes & 0x40) != 0 ? 4 : 0);
    Layout layout = new Layout(rows, heapSizes);
    long typeDefAt = tablesAt;
    long nestedAt = tablesAt;
    for (int t = 0; t < NESTED_CLASS; t++) {
      long tableSize = rows[t] * layout.rowSize(t);
      if (t < TYPE_DEF) {
        typeDefAt += tableSize;
      }
      nestedAt += tableSize;
    }
    int typeDefRows = (int) rows[TYPE_DEF];
    int typeDefRowSize = layout.rowSize(TYPE_DEF);
    PdbBytes typeDefs =
        tables.slice(typeDefAt, (long) typeDefRows * typeDefRowSize, "the TypeDef table");
    int typeDefIndex = layout.index(TYPE_DEF);
    int nestedRows = (int) rows[NESTED_CLASS];
    PdbBytes nested =
        tables.slice(nestedAt, (long) nestedRows * 2 * typeDefIndex, "the NestedClass table");
    int[] enclosing = new int[typeDefRows + 1];
    for (int r = 0; r < nestedRows; r++) {
      long rowAt = (long) r * 2 * typeDefIndex;
      int inner = nested.index(rowAt, typeDefIndex == 4, "a NestedClass row");
      int outer = nested.index(rowAt + typeDefIndex, typeDefIndex == 4, "a NestedClass row");
      if (inner >= 1 && inner <= typeDefRows && outer >= 1 && outer <= typeDefRows) {
        enclosing[inner] = outer;
      }
    }
    return new TypeDefinitions(
        strings, typeDefs, typeDefRows, typeDefRowSize, (heapSizes & 0x01) != 0, enclosing);
  }

  /**
   * Fills {@code rows} (by table number) from a {@code #~} stream's header; returns how many tables
   * are present.
   */
  private static int rowCounts(PdbBytes tables, long[] rows) throws PdbFormatException {
    long valid = tables.u64(8, "the table mask");
    int present = 0;
    for (int t = 0; t < 64; t++) {
      if ((valid & (1L << t)) != 0) {
        rows[t] = tables.u32(24 + 4L * present++, "the row counts");
        if (rows[t] > 0xFFFFFF) {
          throw new PdbFormatException("a table of more than 16,777,215 rows");
        }
      }
    }
    return present;
  }

  /** The most a metadata root's header and stream headers take: the version and five streams. */
  private static final int ROOT_HEADER_BYTES = 20 + 256 + 5 * 40;

  /** The most a {@code #~} stream's header takes: 24 bytes and a row count per table. */
  private static final int TABLES_HEADER_BYTES = 24 + 64 * 4;

  private static final int FIELD_PTR = 0x03;
  private static final int FIELD = 0x04;
  private static final int FIELD_STATIC = 0x10;
  private static final int FIELD_LITERAL = 0x40;

  /** More table bytes than any assembly's: a damaged count. */
  private static final long MAX_TABLE_BYTES = 1L << 26;

  /**
   * The fields each type-def declares, by type-def row (index 0 unused, so that the arrays' length
   * less one is the number of type-defs): its instance fields, and its statics the runtime keeps
   * (static fields that are not literal constants).
   *
   * @param instance instance fields by row
   * @param statics kept static fields by row
   */
  public record FieldCounts(int[] instance, int[] statics) {}

  /**
   * The fields the type-defs of the metadata of {@code size} bytes at {@code source}'s offset 0 (a
   * loaded module's, in a process's memory) declare, read from the root's and the {@code #~}
   * stream's headers and the TypeDef and Field tables only.
   *
   * @throws PdbFormatException when the metadata is not readable or not whole, or lists its fields
   *     through a FieldPtr table (unoptimised metadata)
   */
  public static FieldCounts fieldCounts(PeDebugInfo.Source source, long size)
      throws IOException, PdbFormatException {
    PdbBytes root = PdbBytes.of(readUpTo(source, 0, size, ROOT_HEADER_BYTES), "the metadata");
    MetadataStreams.Stream stream = null;
    for (MetadataStreams.Stream s : MetadataStreams.of(root)) {
      if (s.name().equals("#~") || s.name().equals("#-")) {
        stream = s;
      }
    }
    if (stream == null) {
      throw new PdbFormatException("no #~ stream");
    }
    if (stream.offset() > size || stream.size() > size - stream.offset()) {
      throw new PdbFormatException("a tables stream beyond the metadata");
    }
    PdbBytes header =
        PdbBytes.of(
            readUpTo(source, stream.offset(), stream.size(), TABLES_HEADER_BYTES),
            "the tables stream");
    int heapSizes = header.u8(6, "the heap sizes");
    long[] rows = new long[64];
    int present = rowCounts(header, rows);
    if (rows[FIELD_PTR] != 0) {
      throw new PdbFormatException("fields listed through a FieldPtr table");
    }
    Layout layout = new Layout(rows, heapSizes);
    long typeDefAt = 24 + 4L * present + ((heapSizes & 0x40) != 0 ? 4 : 0);
    for (int t = 0; t < TYPE_DEF; t++) {
      typeDefAt += rows[t] * layout.rowSize(t);
    }
    int typeDefRowSize = layout.rowSize(TYPE_DEF);
    long fieldAt = typeDefAt + rows[TYPE_DEF] * typeDefRowSize;
    int fieldRowSize = layout.rowSize(FIELD);
    PdbBytes typeDefs =
        table(source, stream, typeDefAt, rows[TYPE_DEF] * typeDefRowSize, "the TypeDef table");
    PdbBytes fields = table(source, stream, fieldAt, rows[FIELD] * fieldRowSize, "the Field table");
    // A type-def's fields run from its FieldList to the next type-def's (the table's end for the
    // last); the column follows Flags, Name, Namespace and Extends.
    int fieldListAt =
        4 + 2 * layout.columnSize(Layout.STRING) + layout.columnSize(Layout.TYPE_DEF_OR_REF);
    boolean wide = layout.index(FIELD) == 4;
    int typeDefRows = (int) rows[TYPE_DEF];
    long fieldRows = rows[FIELD];
    int[] instance = new int[typeDefRows + 1];
    int[] statics = new int[typeDefRows + 1];
    long next = typeDefRows == 0 ? 0 : typeDefs.index(fieldListAt, wide, "a FieldList");
    long counted = 1;
    for (int r = 1; r <= typeDefRows; r++) {
      long first = next;
      next =
          r == typeDefRows
              ? fieldRows + 1
              : typeDefs.index((long) r * typeDefRowSize + fieldListAt, wide, "a FieldList");
      // A damaged table's lists may overlap: each field is counted once, so the work stays linear.
      long end = Math.min(next, fieldRows + 1);
      long from = Math.max(Math.max(first, 1), counted);
      counted = Math.max(counted, end);
      for (long f = from; f < end; f++) {
        int flags = fields.u16((f - 1) * fieldRowSize, "a field's flags");
        if ((flags & FIELD_STATIC) == 0) {
          instance[r]++;
        } else if ((flags & FIELD_LITERAL) == 0) {
          statics[r]++;
        }
      }
    }
    return new FieldCounts(instance, statics);
  }

  private static PdbBytes table(
      PeDebugInfo.Source source, MetadataStreams.Stream stream, long at, long bytes, String what)
      throws IOException, PdbFormatException {
    if (bytes > MAX_TABLE_BYTES || at > stream.size() || bytes > stream.size() - at) {
      throw new PdbFormatException(what + " beyond the tables stream");
    }
    byte[] table = new byte[(int) bytes];
    if (!source.read(stream.offset() + at, table)) {
      throw new PdbFormatException(what + " is not readable");
    }
    return PdbBytes.of(table, what);
  }

  private static byte[] readUpTo(PeDebugInfo.Source source, long offset, long size, int most)
      throws IOException, PdbFormatException {
    byte[] bytes = new byte[(int) Math.min(size, most)];
    if (!source.read(offset, bytes)) {
      throw new PdbFormatException("the metadata is not readable");
    }
    return bytes;
  }

  /** Nesting deeper than this is a loop in a damaged file. */
  private static final int MAX_NESTING = 64;

  /**
   * The full name of the type defined by {@code token} (a TypeDef token), or null when the assembly
   * has no such row.
   */
  public String name(int token) throws PdbFormatException {
    int row = token & 0x00FF_FFFF;
    if ((token >>> 24) != TYPE_DEF || row < 1 || row > typeDefRows) {
      return null;
    }
    StringBuilder name = new StringBuilder(own(row));
    for (int outer = enclosing[row], depth = 0; outer != 0; outer = enclosing[outer]) {
      if (++depth > MAX_NESTING) {
        throw new PdbFormatException("type " + token + " is nested in a loop");
      }
      name.insert(0, own(outer) + "+");
    }
    return name.toString();
  }

  /** Whether the type defined by {@code token} is declared inside another type. */
  public boolean isNested(int token) {
    int row = token & 0x00FF_FFFF;
    return (token >>> 24) == TYPE_DEF && row >= 1 && row <= typeDefRows && enclosing[row] != 0;
  }

  /** A row's own name: {@code Namespace.Name}, or the name alone for a nested type. */
  private String own(int row) throws PdbFormatException {
    long at = (long) (row - 1) * typeDefRowSize;
    int stringIndex = wideStrings ? 4 : 2;
    String name = string(typeDefs.index(at + 4, wideStrings, "a TypeDef's name"));
    String namespace = string(typeDefs.index(at + 4 + stringIndex, wideStrings, "a namespace"));
    return namespace.isEmpty() ? name : namespace + "." + name;
  }

  private String string(long index) throws PdbFormatException {
    return strings.utf8z(index, 4096, "a #Strings entry");
  }

  /**
   * The row size of every table up to NestedClass (ECMA-335 II.22): each column a fixed-size
   * number, an index into a heap (2 or 4 bytes by the heap sizes), a table (2 or 4 by its rows) or
   * a coded index over several tables (2 unless one of them has too many rows for the tag's bits).
   */
  private static final class Layout {
    // Column kinds: numbers are their byte size (1, 2, 4); heaps; tables; coded indexes.
    private static final int STRING = 100;
    private static final int GUID = 101;
    private static final int BLOB = 102;
    private static final int TABLE = 200; // + the table's number
    private static final int CODED = 300; // + the coded index's number

    private static final int[][] CODED_TABLES = {
      {0x02, 0x01, 0x1B}, // TypeDefOrRef
      {0x04, 0x08, 0x17}, // HasConstant
      {
        0x06, 0x04, 0x01, 0x02, 0x08, 0x09, 0x0A, 0x00, 0x0E, 0x17, 0x14, 0x11, 0x1A, 0x1B, 0x20,
        0x23, 0x26, 0x27, 0x28, 0x2A, 0x2C, 0x2B
      }, // HasCustomAttribute
      {0x04, 0x08}, // HasFieldMarshal
      {0x02, 0x06, 0x20}, // HasDeclSecurity
      {0x02, 0x01, 0x1A, 0x06, 0x1B}, // MemberRefParent
      {0x14, 0x17}, // HasSemantics
      {0x06, 0x0A}, // MethodDefOrRef
      {0x04, 0x06}, // MemberForwarded
      {0x26, 0x23, 0x27}, // Implementation
      {-1, -1, 0x06, 0x0A, -1}, // CustomAttributeType
      {0x00, 0x1A, 0x23, 0x01}, // ResolutionScope
    };

    private static final int TYPE_DEF_OR_REF = CODED;
    private static final int HAS_CONSTANT = CODED + 1;
    private static final int HAS_CUSTOM_ATTRIBUTE = CODED + 2;
    private static final int HAS_FIELD_MARSHAL = CODED + 3;
    private static final int HAS_DECL_SECURITY = CODED + 4;
    private static final int MEMBER_REF_PARENT = CODED + 5;
    private static final int HAS_SEMANTICS = CODED + 6;
    private static final int METHOD_DEF_OR_REF = CODED + 7;
    private static final int MEMBER_FORWARDED = CODED + 8;
    private static final int IMPLEMENTATION = CODED + 9;
    private static final int CUSTOM_ATTRIBUTE_TYPE = CODED + 10;
    private static final int RESOLUTION_SCOPE = CODED + 11;

    /** Tables 0x00 to 0x28, their columns in order. */
    private static final int[][] COLUMNS = {
      {2, STRING, GUID, GUID, GUID}, // Module
      {RESOLUTION_SCOPE, STRING, STRING}, // TypeRef
      {4, STRING, STRING, TYPE_DEF_OR_REF, TABLE + 0x04, TABLE + 0x06}, // TypeDef
      {TABLE + 0x04}, // FieldPtr
      {2, STRING, BLOB}, // Field
      {TABLE + 0x06}, // MethodPtr
      {4, 2, 2, STRING, BLOB, TABLE + 0x08}, // MethodDef
      {TABLE + 0x08}, // ParamPtr
      {2, 2, STRING}, // Param
      {TABLE + 0x02, TYPE_DEF_OR_REF}, // InterfaceImpl
      {MEMBER_REF_PARENT, STRING, BLOB}, // MemberRef
      {2, HAS_CONSTANT, BLOB}, // Constant
      {HAS_CUSTOM_ATTRIBUTE, CUSTOM_ATTRIBUTE_TYPE, BLOB}, // CustomAttribute
      {HAS_FIELD_MARSHAL, BLOB}, // FieldMarshal
      {2, HAS_DECL_SECURITY, BLOB}, // DeclSecurity
      {2, 4, TABLE + 0x02}, // ClassLayout
      {4, TABLE + 0x04}, // FieldLayout
      {BLOB}, // StandAloneSig
      {TABLE + 0x02, TABLE + 0x14}, // EventMap
      {TABLE + 0x14}, // EventPtr
      {2, STRING, TYPE_DEF_OR_REF}, // Event
      {TABLE + 0x02, TABLE + 0x17}, // PropertyMap
      {TABLE + 0x17}, // PropertyPtr
      {2, STRING, BLOB}, // Property
      {2, TABLE + 0x06, HAS_SEMANTICS}, // MethodSemantics
      {TABLE + 0x02, METHOD_DEF_OR_REF, METHOD_DEF_OR_REF}, // MethodImpl
      {STRING}, // ModuleRef
      {BLOB}, // TypeSpec
      {2, MEMBER_FORWARDED, STRING, TABLE + 0x1A}, // ImplMap
      {4, TABLE + 0x04}, // FieldRVA
      {4, 4}, // ENCLog
      {4}, // ENCMap
      {4, 2, 2, 2, 2, 4, BLOB, STRING, STRING}, // Assembly
      {4}, // AssemblyProcessor
      {4, 4, 4}, // AssemblyOS
      {2, 2, 2, 2, 4, BLOB, STRING, STRING, BLOB}, // AssemblyRef
      {4, TABLE + 0x23}, // AssemblyRefProcessor
      {4, 4, 4, TABLE + 0x23}, // AssemblyRefOS
      {4, STRING, BLOB}, // File
      {4, 4, STRING, STRING, IMPLEMENTATION}, // ExportedType
      {4, 4, STRING, IMPLEMENTATION}, // ManifestResource
    };

    private final long[] rows;
    private final int heapSizes;

    Layout(long[] rows, int heapSizes) {
      this.rows = rows;
      this.heapSizes = heapSizes;
    }

    int rowSize(int table) {
      int size = 0;
      for (int column : COLUMNS[table]) {
        size += columnSize(column);
      }
      return size;
    }

    /** The size of an index into {@code table}. */
    int index(int table) {
      return rows[table] > 0xFFFF ? 4 : 2;
    }

    int columnSize(int column) {
      if (column < STRING) {
        return column;
      }
      return switch (column) {
        case STRING -> (heapSizes & 0x01) != 0 ? 4 : 2;
        case GUID -> (heapSizes & 0x02) != 0 ? 4 : 2;
        case BLOB -> (heapSizes & 0x04) != 0 ? 4 : 2;
        default -> column < CODED ? index(column - TABLE) : coded(CODED_TABLES[column - CODED]);
      };
    }

    private int coded(int[] tables) {
      int tagBits = 32 - Integer.numberOfLeadingZeros(tables.length - 1);
      long most = 0;
      for (int t : tables) {
        if (t >= 0) {
          most = Math.max(most, rows[t]);
        }
      }
      return most < (1L << (16 - tagBits)) ? 2 : 4;
    }
  }
}
