package dev.clrscope.symbols;

import dev.clrscope.nettrace.Guid;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * What a managed assembly (a PE/COFF file) says about its PDB: the entries of its debug directory
 * that name one (CodeView: the PDB's GUID, age and path; portable or Windows by the entry's minor
 * version) and the portable PDB it may carry inside (Embedded Portable PDB: {@code MPDB}, the size,
 * then deflate). Read from the file's layout or from an image as the loader mapped it (RVAs are
 * offsets). Every header, directory and entry is checked against the bytes the image has.
 */
public final class PeDebugInfo {
  /** IMAGE_DEBUG_TYPE_CODEVIEW. */
  private static final int CODEVIEW = 2;

  /** IMAGE_DEBUG_TYPE_EMBEDDED_PORTABLE_PDB. */
  private static final int EMBEDDED_PORTABLE_PDB = 17;

  /** IMAGE_DEBUG_TYPE_PDBCHECKSUM. */
  private static final int PDB_CHECKSUM = 19;

  /** The CodeView entry's minor version that says the PDB is portable ("PM"). */
  private static final int PORTABLE_MINOR = 0x504D;

  /** The debug directory of a real assembly has a handful of entries. */
  private static final int MAX_ENTRIES = 64;

  /** An embedded PDB larger than this (compressed or not) is refused: no assembly needs more. */
  static final int MAX_EMBEDDED_BYTES = 256 << 20;

  /** Where the bytes of an image come from: a file, or memory the loader mapped. */
  public interface Source {
    /** Reads {@code dst.length} bytes at {@code offset}; false when they are not all there. */
    boolean read(long offset, byte[] dst) throws IOException;
  }

  /**
   * A CodeView entry: the PDB the assembly was built with.
   *
   * @param id the PDB's GUID and the entry's time stamp (a portable PDB's id)
   * @param age the Windows PDB age (1 for portable PDBs)
   * @param path the PDB's path as the compiler wrote it
   * @param portable whether the entry names a portable PDB (else a Windows PDB)
   */
  public record CodeView(PdbId id, long age, String path, boolean portable) {}

  /**
   * A PDB Checksum entry: the hash of the PDB the assembly was built with, its id zeroed.
   *
   * @param algorithm the hash's name as the entry gives it ({@code SHA256})
   * @param checksum the hash
   */
  @SuppressWarnings("ArrayRecordComponent") // compared by content where it is used, never mutated
  public record Checksum(String algorithm, byte[] checksum) {}

  private final List<CodeView> codeViews;
  private final List<Checksum> checksums;
  private final byte[] embedded;

  private PeDebugInfo(List<CodeView> codeViews, List<Checksum> checksums, byte[] embedded) {
    this.codeViews = List.copyOf(codeViews);
    this.checksums = List.copyOf(checksums);
    this.embedded = embedded;
  }

  /** The PDB checksums the assembly records, in directory order. */
  public List<Checksum> checksums() {
    return checksums;
  }

  /** The CodeView entries, in directory order. */
  public List<CodeView> codeViews() {
    return codeViews;
  }

  /** The first CodeView entry of a portable PDB, or null. */
  public CodeView portableCodeView() {
    for (CodeView c : codeViews) {
      if (c.portable()) {
        return c;
      }
    }
    return null;
  }

  /** Whether the assembly carries its portable PDB inside. */
  public boolean hasEmbeddedPdb() {
    return embedded != null;
  }

  /**
   * Reads the debug directory of an image.
   *
   * @param size how many bytes the source has (the file's size; for a mapped image, the image size
   *     or a bound on it)
   * @param mapped whether the source is the image as mapped (RVAs are offsets) rather than the file
   */
  public static PeDebugInfo read(Source source, long size, boolean mapped)
      throws IOException, PdbFormatException {
    PeImage image = PeImage.read(source, size, mapped);
    long[] debug = image.directory(PeImage.DEBUG_DIRECTORY);
    if (debug == null) {
      return new PeDebugInfo(List.of(), List.of(), null);
    }
    long debugSize = debug[1];
    long directoryAt = image.offsetOf(debug[0], "the debug directory");
    long entries = debugSize / 28;
    if (entries > MAX_ENTRIES) {
      throw new PdbFormatException("the debug directory claims " + entries + " entries");
    }
    byte[] dir = image.bytes(directoryAt, (int) (entries * 28), "the debug directory");
    List<CodeView> codeViews = new ArrayList<>();
    List<Checksum> checksums = new ArrayList<>();
    byte[] embedded = null;
    for (int i = 0; i < entries; i++) {
      int e = 28 * i;
      long stamp = PeImage.le32(dir, e + 4);
      int minor = PeImage.le16(dir, e + 10);
      long type = PeImage.le32(dir, e + 12);
      long dataSize = PeImage.le32(dir, e + 16);
      long dataRva = PeImage.le32(dir, e + 20);
      long dataPointer = PeImage.le32(dir, e + 24);
      long at = mapped ? dataRva : dataPointer;
      if (type == CODEVIEW) {
        if (dataSize < 24 || dataSize > 4096) {
          throw new PdbFormatException("a CodeView entry of " + dataSize + " bytes");
        }
        byte[] cv = image.bytes(at, (int) dataSize, "a CodeView entry");
        if (cv[0] != 'R' || cv[1] != 'S' || cv[2] != 'D' || cv[3] != 'S') {
          continue; // an older CodeView form (NB10): no PDB a debugger of today reads
        }
        Guid guid = PdbId.guidOf(cv, 4);
        long age = PeImage.le32(cv, 20);
        int end = 24;
        while (end < cv.length && cv[end] != 0) {
          end++;
        }
        String path = new String(cv, 24, end - 24, StandardCharsets.UTF_8);
        codeViews.add(new CodeView(new PdbId(guid, stamp), age, path, minor == PORTABLE_MINOR));
      } else if (type == PDB_CHECKSUM) {
        if (dataSize < 2 || dataSize > 1024) {
          throw new PdbFormatException("a PDB checksum entry of " + dataSize + " bytes");
        }
        byte[] data = image.bytes(at, (int) dataSize, "a PDB checksum entry");
        int end = 0;
        while (end < data.length && data[end] != 0) {
          end++;
        }
        if (end == data.length || end == 0) {
          throw new PdbFormatException("a PDB checksum entry names no algorithm");
        }
        checksums.add(
            new Checksum(
                new String(data, 0, end, StandardCharsets.UTF_8),
                java.util.Arrays.copyOfRange(data, end + 1, data.length)));
      } else if (type == EMBEDDED_PORTABLE_PDB && embedded == null) {
        if (dataSize < 8 || dataSize > MAX_EMBEDDED_BYTES) {
          throw new PdbFormatException("an embedded PDB entry of " + dataSize + " bytes");
        }
        embedded = image.bytes(at, (int) dataSize, "the embedded PDB");
      }
    }
    return new PeDebugInfo(codeViews, checksums, embedded);
  }

  /**
   * The portable PDB the assembly carries, decompressed: {@code MPDB}, its size, and the deflated
   * bytes, which must inflate to exactly that size.
   */
  public byte[] embeddedPdb() throws PdbFormatException {
    if (embedded == null) {
      throw new PdbFormatException("the assembly has no embedded PDB");
    }
    if (embedded[0] != 'M' || embedded[1] != 'P' || embedded[2] != 'D' || embedded[3] != 'B') {
      throw new PdbFormatException("the embedded PDB has no MPDB signature");
    }
    long declared = PeImage.le32(embedded, 4);
    if (declared > MAX_EMBEDDED_BYTES) {
      throw new PdbFormatException("the embedded PDB claims " + declared + " bytes");
    }
    Inflater inflater = new Inflater(true);
    try {
      inflater.setInput(embedded, 8, embedded.length - 8);
      ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(declared, 1 << 20));
      byte[] buf = new byte[1 << 16];
      while (!inflater.finished()) {
        int n = inflater.inflate(buf);
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          throw new PdbFormatException("the embedded PDB's compressed bytes end early");
        }
        if (out.size() + (long) n > declared) {
          throw new PdbFormatException(
              "the embedded PDB inflates to more than the " + declared + " bytes it claims");
        }
        out.write(buf, 0, n);
      }
      if (out.size() != declared) {
        throw new PdbFormatException(
            "the embedded PDB inflates to "
                + out.size()
                + " of the "
                + declared
                + " bytes it claims");
      }
      return out.toByteArray();
    } catch (DataFormatException e) {
      throw new PdbFormatException("the embedded PDB does not inflate (" + e.getMessage() + ")");
    } finally {
      inflater.end();
    }
  }
}
