package dev.clrscope.symbols;

import dev.clrscope.nettrace.Guid;
import java.util.Locale;

/**
 * The identity of a portable PDB: the 20 bytes its {@code #Pdb} stream begins with, a GUID and a
 * 4-byte stamp. An assembly names the PDB it was built with by the same two values (its CodeView
 * debug directory entry: the GUID, and the entry's time stamp), so a PDB whose id differs belongs
 * to another build and is never used.
 *
 * @param guid the first 16 bytes
 * @param stamp the last 4 bytes, an unsigned little-endian integer; -1 when only the GUID is known
 *     (the runtime's module events carry the GUID alone)
 */
public record PdbId(Guid guid, long stamp) {
  /** Only the GUID known: matches any stamp. */
  public static PdbId ofGuid(Guid guid) {
    return new PdbId(guid, -1);
  }

  /** Whether {@code pdb}'s id is this one (a stamp not known matches any). */
  public boolean matches(PdbId pdb) {
    return sameGuid(pdb) && (stamp < 0 || pdb.stamp < 0 || stamp == pdb.stamp);
  }

  private boolean sameGuid(PdbId pdb) {
    return guid.low() == pdb.guid.low() && guid.high() == pdb.guid.high();
  }

  // Written out: see SourceLine.
  @Override
  public boolean equals(Object o) {
    return o instanceof PdbId p && sameGuid(p) && p.stamp == stamp;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(guid.low() ^ guid.high()) * 31 + Long.hashCode(stamp);
  }

  /**
   * The SSQP key of the portable PDB {@code fileName} (dotnet/symstore's Portable-Pdb-Signature
   * convention: {@code name.pdb/<guid>FFFFFFFF/name.pdb}, the name lower-cased, the GUID as 32 hex
   * digits with its first three groups as integers).
   */
  public String ssqpKey(String fileName) {
    String name = fileName.toLowerCase(Locale.ROOT);
    return name + "/" + guid.toString().replace("-", "") + "FFFFFFFF/" + name;
  }

  /** The GUID and, when known, the stamp, as a person compares them. */
  @Override
  public String toString() {
    return stamp < 0 ? guid.toString() : guid + String.format(Locale.ROOT, "-%08x", stamp);
  }

  /** A GUID from its 16 bytes as stored (the first three groups little-endian). */
  static Guid guidOf(byte[] b, int at) {
    long low = 0;
    long high = 0;
    for (int i = 0; i < 8; i++) {
      low |= (b[at + i] & 0xFFL) << (8 * i);
      high |= (b[at + 8 + i] & 0xFFL) << (8 * i);
    }
    return new Guid(low, high);
  }
}
