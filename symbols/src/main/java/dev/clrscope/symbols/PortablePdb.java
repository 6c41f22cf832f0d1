package dev.clrscope.symbols;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * A portable PDB (ECMA-335 metadata with a {@code #Pdb} stream; dotnet/runtime's
 * PortablePdb-Metadata.md): from a method's token and an IL offset to the source document and line.
 * Only what that takes is read: the {@code #Pdb} stream's id, the Document (0x30) and
 * MethodDebugInformation (0x31) tables of the {@code #~} stream, and the sequence-point and
 * document-name blobs of the {@code #Blob} heap. Opening checks the metadata root, every stream's
 * extent, and that the tables fit their stream; a method's sequence points are decoded, checked and
 * kept when it is first asked for. Not thread-safe.
 */
public final class PortablePdb {
  /** A hidden sequence point's line: code the compiler made that belongs to no line. */
  private static final int HIDDEN_LINE = 0xFEEFEE;

  private static final int DOCUMENT = 0x30;
  private static final int METHOD_DEBUG_INFORMATION = 0x31;

  /** No line or IL offset of a valid sequence point reaches this. */
  private static final int LIMIT = 0x20000000;

  /** A document name longer than this is no path a compiler wrote. */
  private static final int MAX_NAME_CHARS = 32768;

  private final PdbId id;
  private final int idOffset;
  private final PdbBytes blobs;
  private final PdbBytes documents;
  private final int documentRows;
  private final int documentRowSize;
  private final PdbBytes methods;
  private final int methodRows;
  private final int methodRowSize;
  private final boolean wideBlob;
  private final boolean wideDocument;
  private final Map<Integer, String> documentNames = new HashMap<>();
  private final Map<Integer, SequencePoints> sequencePoints = new HashMap<>();

  private PortablePdb(
      PdbId id,
      int idOffset,
      PdbBytes blobs,
      PdbBytes documents,
      int documentRows,
      int documentRowSize,
      PdbBytes methods,
      int methodRows,
      int methodRowSize,
      boolean wideBlob,
      boolean wideDocument) {
    this.id = id;
    this.idOffset = idOffset;
    this.blobs = blobs;
    this.documents = documents;
    this.documentRows = documentRows;
    this.documentRowSize = documentRowSize;
    this.methods = methods;
    this.methodRows = methodRows;
    this.methodRowSize = methodRowSize;
    this.wideBlob = wideBlob;
    this.wideDocument = wideDocument;
  }

  /** Whether {@code data} begins as a Windows (MSF) PDB does. */
  public static boolean looksWindows(byte[] data) {
    byte[] magic = "Microsoft C/C++ MSF 7.00".getBytes(StandardCharsets.US_ASCII);
    if (data.length < magic.length) {
      return false;
    }
    for (int i = 0; i < magic.length; i++) {
      if (data[i] != magic[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Opens a portable PDB held in {@code data} (not copied).
   *
   * @throws PdbFormatException when the metadata root, a stream or a table is not what it claims
   */
  public static PortablePdb parse(byte[] data) throws PdbFormatException {
    PdbBytes file = PdbBytes.of(data, "the PDB");
    if (file.length() < 4 || file.u32(0, "the signature") != MetadataStreams.SIGNATURE) {
      throw new PdbFormatException(
          looksWindows(data)
              ? "a Windows PDB, not a portable one"
              : "not a portable PDB (no metadata signature)");
    }
    PdbBytes pdb = null;
    long pdbAt = 0;
    PdbBytes tables = null;
    PdbBytes blob = null;
    for (MetadataStreams.Stream header : MetadataStreams.of(file)) {
      String name = header.name();
      long offset = header.offset();
      long size = header.size();
      PdbBytes stream = file.slice(offset, size, "the " + name + " stream");
      switch (name) {
        case "#Pdb" -> {
          pdb = stream;
          pdbAt = offset;
        }
        case "#~" -> tables = stream;
        case "#Blob" -> blob = stream;
        case "#-" -> throw new PdbFormatException("uncompressed (#-) metadata tables");
        default -> {}
      }
    }
    if (pdb == null) {
      throw new PdbFormatException("no #Pdb stream: metadata, but no standalone PDB");
    }
    if (tables == null) {
      throw new PdbFormatException("no #~ stream");
    }
    if (blob == null) {
      blob = new PdbBytes(new byte[1], 0, 1, "the #Blob heap");
    }
    byte[] idBytes = pdb.bytes(0, 20, "the PDB id");
    PdbId id = new PdbId(PdbId.guidOf(idBytes, 0), pdb.u32(16, "the PDB id"));

    int heapSizes = tables.u8(6, "the heap sizes");
    long valid = tables.u64(8, "the table mask");
    if ((valid & ((1L << DOCUMENT) - 1)) != 0) {
      throw new PdbFormatException("type system tables in a standalone PDB's #~ stream");
    }
    int present = Long.bitCount(valid);
    long rowsAt = 24;
    long[] rows = new long[64];
    int k = 0;
    for (int t = 0; t < 64; t++) {
      if ((valid & (1L << t)) != 0) {
        rows[t] = tables.u32(rowsAt + 4L * k++, "the row counts");
      }
    }
    long tablesAt = rowsAt + 4L * present + ((heapSizes & 0x40) != 0 ? 4 : 0);
    boolean wideGuid = (heapSizes & 0x02) != 0;
    boolean wideBlob = (heapSizes & 0x04) != 0;
    if (rows[DOCUMENT] > 0xFFFFFF || rows[METHOD_DEBUG_INFORMATION] > 0xFFFFFF) {
      throw new PdbFormatException("a table of more than 16,777,215 rows");
    }
    int documentRows = (int) rows[DOCUMENT];
    int methodRows = (int) rows[METHOD_DEBUG_INFORMATION];
    boolean wideDocument = documentRows > 0xFFFF;
    int blobIndex = wideBlob ? 4 : 2;
    int guidIndex = wideGuid ? 4 : 2;
    int documentRowSize = 2 * blobIndex + 2 * guidIndex;
    int methodRowSize = (wideDocument ? 4 : 2) + blobIndex;
    PdbBytes documents =
        tables.slice(tablesAt, (long) documentRows * documentRowSize, "the Document table");
    PdbBytes methods =
        tables.slice(
            tablesAt + (long) documentRows * documentRowSize,
            (long) methodRows * methodRowSize,
            "the MethodDebugInformation table");
    return new PortablePdb(
        id,
        (int) pdbAt,
        blob,
        documents,
        documentRows,
        documentRowSize,
        methods,
        methodRows,
        methodRowSize,
        wideBlob,
        wideDocument);
  }

  /** The PDB's id, which the assembly's CodeView entry must name. */
  public PdbId id() {
    return id;
  }

  /**
   * Whether {@code data} (this PDB's bytes) hashes to {@code checksum}, the PDB Checksum entry of
   * its assembly: the whole file with its id zeroed (dotnet/runtime's PE-COFF.md). An algorithm
   * this JDK does not know checks nothing and passes.
   */
  public boolean matchesChecksum(byte[] data, PeDebugInfo.Checksum checksum) {
    String algorithm =
        switch (checksum.algorithm()) {
          case "SHA256" -> "SHA-256";
          case "SHA384" -> "SHA-384";
          case "SHA512" -> "SHA-512";
          case "SHA1" -> "SHA-1";
          default -> null;
        };
    if (algorithm == null) {
      return true;
    }
    java.security.MessageDigest digest;
    try {
      digest = java.security.MessageDigest.getInstance(algorithm);
    } catch (java.security.NoSuchAlgorithmException e) {
      return true;
    }
    digest.update(data, 0, idOffset);
    digest.update(new byte[20]);
    digest.update(data, idOffset + 20, data.length - idOffset - 20);
    return java.security.MessageDigest.isEqual(digest.digest(), checksum.checksum());
  }

  /** Number of methods with a row (the assembly's MethodDef rows). */
  public int methodCount() {
    return methodRows;
  }

  /**
   * The source line of IL offset {@code ilOffset} in the method {@code methodToken}: the last
   * sequence point at or before the offset that is not hidden, as .NET's own stack traces choose
   * it; null when the method has none there (no row, no sequence points, only hidden ones).
   *
   * @throws PdbFormatException when the method's row or blobs are damaged
   */
  public SourceLine lineOf(int methodToken, int ilOffset) throws PdbFormatException {
    if (methodToken >>> 24 != 0x06) {
      return null;
    }
    int rid = methodToken & 0xFFFFFF;
    if (rid < 1 || rid > methodRows || ilOffset < 0) {
      return null;
    }
    SequencePoints points = sequencePoints.get(rid);
    if (points == null) {
      points = decode(rid);
      sequencePoints.put(rid, points);
    }
    int line = -1;
    int document = -1;
    for (int i = 0; i < points.count; i++) {
      if (points.il[i] > ilOffset) {
        break;
      }
      if (points.line[i] != HIDDEN_LINE) {
        line = points.line[i];
        document = points.document[i];
      }
    }
    return line < 0 ? null : new SourceLine(documentName(document), line);
  }

  /** Sequence points of one method, decoded: IL offsets ascending, lines, documents. */
  private static final class SequencePoints {
    static final SequencePoints NONE = new SequencePoints(new int[0], new int[0], new int[0], 0);
    final int[] il;
    final int[] line;
    final int[] document;
    final int count;

    SequencePoints(int[] il, int[] line, int[] document, int count) {
      this.il = il;
      this.line = line;
      this.document = document;
      this.count = count;
    }
  }

  private SequencePoints decode(int rid) throws PdbFormatException {
    long row = (long) (rid - 1) * methodRowSize;
    int document =
        methods.index(row, wideDocument, "the MethodDebugInformation row of method " + rid);
    int blobIndex =
        methods.index(
            row + (wideDocument ? 4 : 2),
            wideBlob,
            "the MethodDebugInformation row of method " + rid);
    if (blobIndex == 0) {
      return SequencePoints.NONE;
    }
    String what = "the sequence points of method " + rid;
    PdbBytes.Cursor c = blob(blobIndex, what);
    c.unsigned(); // LocalSignature
    if (document == 0) {
      document = c.unsigned(); // InitialDocument: the method spans documents
    }
    checkDocument(document, what);
    int capacity = 8;
    int[] il = new int[capacity];
    int[] line = new int[capacity];
    int[] doc = new int[capacity];
    int n = 0;
    int offset = -1;
    int startLine = -1;
    while (c.hasMore()) {
      int delta = c.unsigned();
      if (n > 0 && delta == 0) {
        document = c.unsigned(); // document-record
        checkDocument(document, what);
        continue;
      }
      offset = n == 0 ? delta : offset + delta;
      if (offset >= LIMIT || offset < 0) {
        throw new PdbFormatException(what + " reach IL offset " + offset);
      }
      int deltaLines = c.unsigned();
      int deltaColumns = deltaLines == 0 ? c.unsigned() : c.signed();
      int lineHere;
      if (deltaLines == 0 && deltaColumns == 0) {
        lineHere = HIDDEN_LINE;
      } else {
        // The start column follows the start line; a frame's line does not take it.
        if (startLine < 0) {
          startLine = c.unsigned();
          c.unsigned();
        } else {
          startLine += c.signed();
          c.signed();
        }
        if (startLine < 0 || startLine >= LIMIT || startLine == HIDDEN_LINE) {
          throw new PdbFormatException(what + " reach line " + startLine);
        }
        lineHere = startLine;
      }
      if (n == capacity) {
        capacity *= 2;
        il = java.util.Arrays.copyOf(il, capacity);
        line = java.util.Arrays.copyOf(line, capacity);
        doc = java.util.Arrays.copyOf(doc, capacity);
      }
      il[n] = offset;
      line[n] = lineHere;
      doc[n] = document;
      n++;
    }
    if (n == 0) {
      throw new PdbFormatException(what + " hold no sequence point");
    }
    return new SequencePoints(il, line, doc, n);
  }

  private void checkDocument(int document, String what) throws PdbFormatException {
    if (document < 1 || document > documentRows) {
      throw new PdbFormatException(what + " name document " + document + " of " + documentRows);
    }
  }

  private PdbBytes.Cursor blob(int index, String what) throws PdbFormatException {
    return blobs.blob(index, what);
  }

  private String documentName(int document) throws PdbFormatException {
    String name = documentNames.get(document);
    if (name != null) {
      return name;
    }
    String what = "the name of document " + document;
    int blobIndex = documents.index((long) (document - 1) * documentRowSize, wideBlob, what);
    PdbBytes.Cursor c = blob(blobIndex, what);
    if (!c.hasMore()) {
      throw new PdbFormatException(what + " is empty");
    }
    int separator = c.unsigned();
    if (separator > 0x7F) {
      throw new PdbFormatException(what + " has a separator outside ASCII");
    }
    StringBuilder sb = new StringBuilder();
    boolean first = true;
    while (c.hasMore()) {
      int part = c.unsigned();
      if (!first && separator != 0) {
        sb.append((char) separator);
      }
      first = false;
      if (part != 0) {
        PdbBytes.Cursor p = blob(part, what);
        int size = p.remaining();
        if (sb.length() + size > MAX_NAME_CHARS) {
          throw new PdbFormatException(what + " is longer than " + MAX_NAME_CHARS + " characters");
        }
        sb.append(p.utf8());
      }
    }
    name = sb.toString();
    documentNames.put(document, name);
    return name;
  }
}
