package dev.clrscope.symbols;

import java.util.ArrayList;
import java.util.List;

/**
 * The stream headers of an ECMA-335 metadata root (a module's metadata, a portable PDB): each
 * stream's name and where it lies from the root's start.
 */
final class MetadataStreams {
  /** "BSJB", the metadata root's signature. */
  static final long SIGNATURE = 0x424A5342L;

  private MetadataStreams() {}

  /** A stream of a metadata root: its name, and where it is from the root's start. */
  record Stream(String name, long offset, long size) {}

  /** The streams the headers of the metadata root {@code root} list. */
  static List<Stream> of(PdbBytes root) throws PdbFormatException {
    if (root.u32(0, "the metadata signature") != SIGNATURE) {
      throw new PdbFormatException("no metadata signature");
    }
    long versionLength = root.u32(12, "the version length");
    if (versionLength > 255) {
      throw new PdbFormatException("a version string of " + versionLength + " bytes");
    }
    long at = 16 + versionLength;
    int streamCount = root.u16(at + 2, "the stream count");
    at += 4;
    List<Stream> out = new ArrayList<>();
    for (int i = 0; i < streamCount; i++) {
      long offset = root.u32(at, "a stream header");
      long size = root.u32(at + 4, "a stream header");
      String name = root.utf8z(at + 8, 32, "a stream name");
      at += 8 + ((name.length() + 4) & ~3);
      out.add(new Stream(name, offset, size));
    }
    return out;
  }
}
