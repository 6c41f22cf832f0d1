package dev.clrscope.symbols;

import java.io.IOException;

/**
 * A PE/COFF image's headers, checked: its data directories (the debug directory, the CLI header)
 * and its sections, which say where an RVA's bytes are in the file; in an image as the loader
 * mapped it, an RVA is the offset. Every read is checked against the bytes the image has.
 */
final class PeImage {
  /** IMAGE_DIRECTORY_ENTRY_DEBUG. */
  static final int DEBUG_DIRECTORY = 6;

  /** IMAGE_DIRECTORY_ENTRY_COM_DESCRIPTOR: the CLI header of a managed assembly. */
  static final int CLI_HEADER = 14;

  /** A real image has a few dozen sections at most. */
  private static final int MAX_SECTIONS = 96;

  private final PeDebugInfo.Source source;
  private final long size;
  private final boolean mapped;
  private final byte[] optional;
  private final int directoriesAt;
  private final long directoryCount;
  private final long sectionsAt;
  private final int sectionCount;
  private long[][] sections;

  private PeImage(
      PeDebugInfo.Source source,
      long size,
      boolean mapped,
      byte[] optional,
      int directoriesAt,
      long directoryCount,
      long sectionsAt,
      int sectionCount) {
    this.source = source;
    this.size = size;
    this.mapped = mapped;
    this.optional = optional;
    this.directoriesAt = directoriesAt;
    this.directoryCount = directoryCount;
    this.sectionsAt = sectionsAt;
    this.sectionCount = sectionCount;
  }

  /**
   * Reads the headers: DOS, PE, the optional header with its data directories.
   *
   * @param size how many bytes the source has (the file's size; for a mapped image, the image size
   *     or a bound on it)
   * @param mapped whether the source is the image as mapped (RVAs are offsets) rather than the file
   */
  static PeImage read(PeDebugInfo.Source source, long size, boolean mapped)
      throws IOException, PdbFormatException {
    byte[] dos = bytes(source, 0, 64, size, "the DOS header");
    if (dos[0] != 'M' || dos[1] != 'Z') {
      throw new PdbFormatException("not a PE file (no MZ header)");
    }
    long peOffset = le32(dos, 0x3C);
    byte[] head = bytes(source, peOffset, 24, size, "the PE header");
    if (head[0] != 'P' || head[1] != 'E' || head[2] != 0 || head[3] != 0) {
      throw new PdbFormatException("not a PE file (no PE signature at " + peOffset + ")");
    }
    int sections = le16(head, 6);
    int optionalSize = le16(head, 20);
    long optionalAt = peOffset + 24;
    byte[] optional = bytes(source, optionalAt, optionalSize, size, "the optional header");
    if (optionalSize < 2) {
      throw new PdbFormatException("the optional header is " + optionalSize + " bytes");
    }
    int magic = le16(optional, 0);
    int directoriesAt;
    if (magic == 0x10b) {
      directoriesAt = 96;
    } else if (magic == 0x20b) {
      directoriesAt = 112;
    } else {
      throw new PdbFormatException(String.format("unknown optional header magic 0x%x", magic));
    }
    if (optionalSize < directoriesAt) {
      throw new PdbFormatException("the optional header is " + optionalSize + " bytes");
    }
    return new PeImage(
        source,
        size,
        mapped,
        optional,
        directoriesAt,
        le32(optional, directoriesAt - 4),
        optionalAt + optionalSize,
        sections);
  }

  /** A data directory's {@code [rva, size]}, or null when the image has none there. */
  long[] directory(int index) {
    if (directoryCount <= index || directoriesAt + 8L * (index + 1) > optional.length) {
      return null;
    }
    long rva = le32(optional, directoriesAt + 8 * index);
    long length = le32(optional, directoriesAt + 8 * index + 4);
    return rva == 0 || length == 0 ? null : new long[] {rva, length};
  }

  /** Where the bytes of {@code rva} are in the source. */
  long offsetOf(long rva, String what) throws IOException, PdbFormatException {
    if (mapped) {
      return rva;
    }
    for (long[] s : sections()) {
      if (rva >= s[0] && rva - s[0] < s[1]) {
        return rva - s[0] + s[2];
      }
    }
    throw new PdbFormatException(what + " (RVA " + rva + ") lies in no section");
  }

  /** {@code n} bytes at {@code offset} of the source, checked to be there. */
  byte[] bytes(long offset, int n, String what) throws IOException, PdbFormatException {
    return bytes(source, offset, n, size, what);
  }

  /** The section table, read when first needed: {virtual address, size, file offset} each. */
  private long[][] sections() throws IOException, PdbFormatException {
    if (sections == null) {
      if (sectionCount > MAX_SECTIONS) {
        throw new PdbFormatException("the PE file claims " + sectionCount + " sections");
      }
      byte[] table = bytes(sectionsAt, 40 * sectionCount, "section headers");
      long[][] map = new long[sectionCount][];
      for (int i = 0; i < sectionCount; i++) {
        long virtualSize = le32(table, 40 * i + 8);
        long virtualAddress = le32(table, 40 * i + 12);
        long rawSize = le32(table, 40 * i + 16);
        long rawPointer = le32(table, 40 * i + 20);
        map[i] = new long[] {virtualAddress, Math.max(virtualSize, rawSize), rawPointer};
      }
      sections = map;
    }
    return sections;
  }

  private static byte[] bytes(PeDebugInfo.Source source, long offset, int n, long size, String what)
      throws IOException, PdbFormatException {
    if (offset < 0 || n < 0 || offset > size || n > size - offset) {
      throw new PdbFormatException(
          what + " (" + n + " bytes at " + offset + ") lies past the end (" + size + " bytes)");
    }
    byte[] b = new byte[n];
    if (!source.read(offset, b)) {
      throw new PdbFormatException(what + " (" + n + " bytes at " + offset + ") is not there");
    }
    return b;
  }

  static int le16(byte[] b, int at) {
    return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
  }

  static long le32(byte[] b, int at) {
    return (b[at] & 0xFFL)
        | (b[at + 1] & 0xFFL) << 8
        | (b[at + 2] & 0xFFL) << 16
        | (b[at + 3] & 0xFFL) << 24;
  }
}
