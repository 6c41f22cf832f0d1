package dev.clrscope.dac.source;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What this module needs from an ELF shared library, read either from a process's memory where it
 * is loaded or from the file: its GNU build-id (the key the DAC is matched and downloaded by) and
 * the runtime's {@code @(#)Version} string. Every offset and count comes from bytes that may be
 * damaged, so each is bounded; a malformed image gives {@code null}, never an exception.
 */
public final class ElfImage {
  private static final int PT_LOAD = 1;
  private static final int PT_NOTE = 4;
  private static final int NT_GNU_BUILD_ID = 3;
  private static final int MAX_PHNUM = 512;
  private static final int MAX_NOTE_BYTES = 1 << 16;
  private static final byte[] VERSION_MARK = "@(#)Version ".getBytes(StandardCharsets.US_ASCII);

  private ElfImage() {}

  /** The build-id of the ELF image loaded at {@code base} in {@code memory}, or null. */
  public static byte[] buildIdInMemory(TargetMemory memory, long base) {
    Loaded image = loaded(memory, base);
    if (image == null) {
      return null;
    }
    for (int at = 0; at < image.phdrs.limit(); at += 56) {
      if (image.phdrs.getInt(at) == PT_NOTE) {
        long vaddr = image.phdrs.getLong(at + 16);
        long size = image.phdrs.getLong(at + 32);
        if (size > 0 && size <= MAX_NOTE_BYTES) {
          byte[] id = buildIdNote(read(memory, image.bias + vaddr, (int) size));
          if (id != null) {
            return id;
          }
        }
      }
    }
    return null;
  }

  /** An image's program headers as loaded, and how far from their vaddrs it is loaded. */
  private record Loaded(ByteBuffer phdrs, long bias) {}

  private static Loaded loaded(TargetMemory memory, long base) {
    ByteBuffer header = read(memory, base, 64);
    if (!isElf64(header)) {
      return null;
    }
    ByteBuffer phdrs = programHeaders(header, (off, len) -> read(memory, base + off, len));
    // Addresses in a shared library's headers are relative to where its first segment landed.
    return phdrs == null ? null : new Loaded(phdrs, base - firstLoadVaddr(phdrs));
  }

  /** The build-id of an ELF file, or null when it is not one or has none. */
  public static byte[] buildIdOfFile(Path file) {
    try (FileChannel fc = FileChannel.open(file, StandardOpenOption.READ)) {
      return buildIdOfFile(fc);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The build-id of the ELF file open in {@code file}, or null. */
  public static byte[] buildIdOfFile(FileChannel file) {
    ByteBuffer header = read(file, 0, 64);
    if (!isElf64(header)) {
      return null;
    }
    ByteBuffer phdrs = programHeaders(header, (off, len) -> read(file, off, len));
    if (phdrs == null) {
      return null;
    }
    for (int at = 0; at < phdrs.limit(); at += 56) {
      if (phdrs.getInt(at) == PT_NOTE) {
        long offset = phdrs.getLong(at + 8);
        long size = phdrs.getLong(at + 32);
        if (size > 0 && size <= MAX_NOTE_BYTES) {
          byte[] id = buildIdNote(read(file, offset, (int) size));
          if (id != null) {
            return id;
          }
        }
      }
    }
    return null;
  }

  /**
   * The read-only loadable segments of the ELF file open in {@code file}: {@code {offset, vaddr,
   * filesz}} each (empty when all are writable), or null when it is not an ELF file. The first
   * entry is always the file's first loadable segment, whatever its flags, for the load bias.
   */
  public static long[][] loadSegments(FileChannel file) {
    ByteBuffer header = read(file, 0, 64);
    if (!isElf64(header)) {
      return null;
    }
    ByteBuffer phdrs = programHeaders(header, (off, len) -> read(file, off, len));
    if (phdrs == null) {
      return null;
    }
    java.util.List<long[]> loads = new java.util.ArrayList<>();
    for (int at = 0; at < phdrs.limit(); at += 56) {
      if (phdrs.getInt(at) == PT_LOAD) {
        boolean writable = (phdrs.getInt(at + 4) & 2) != 0;
        // A writable segment's bytes in the file are its initial values, not the process's: the
        // first segment is kept for its address only (size 0) when it is writable.
        if (!writable || loads.isEmpty()) {
          loads.add(
              new long[] {
                phdrs.getLong(at + 8), phdrs.getLong(at + 16), writable ? 0 : phdrs.getLong(at + 32)
              });
        }
      }
    }
    return loads.toArray(new long[0][]);
  }

  /**
   * The text after {@code @(#)Version } in a writable segment of the image at {@code base} (the
   * runtime's file version and commit, such as {@code 10.0.1226.42308 @Commit: 95017c…}), or null.
   */
  public static String versionInMemory(TargetMemory memory, long base) {
    Loaded image = loaded(memory, base);
    if (image == null) {
      return null;
    }
    for (int at = 0; at < image.phdrs.limit(); at += 56) {
      int flags = image.phdrs.getInt(at + 4);
      if (image.phdrs.getInt(at) == PT_LOAD && (flags & 2) != 0) {
        long vaddr = image.phdrs.getLong(at + 16);
        long size = image.phdrs.getLong(at + 40);
        String version = findVersion(memory, image.bias + vaddr, Math.min(size, 64L << 20));
        if (version != null) {
          return version;
        }
      }
    }
    return null;
  }

  /**
   * The same text read from the file: a core may leave out the page that holds it (the runtime
   * never writes it), and the file's initial values are then what the process had.
   */
  public static String versionInFile(Path file) {
    try (FileChannel fc = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer header = read(fc, 0, 64);
      if (!isElf64(header)) {
        return null;
      }
      ByteBuffer phdrs = programHeaders(header, (off, len) -> read(fc, off, len));
      if (phdrs == null) {
        return null;
      }
      TargetMemory asMemory =
          (address, dst, offset, length) -> {
            ByteBuffer b = read(fc, address, length);
            if (b == null) {
              return 0;
            }
            b.get(dst, offset, length);
            return length;
          };
      for (int at = 0; at < phdrs.limit(); at += 56) {
        if (phdrs.getInt(at) == PT_LOAD && (phdrs.getInt(at + 4) & 2) != 0) {
          String version =
              findVersion(
                  asMemory, phdrs.getLong(at + 8), Math.min(phdrs.getLong(at + 32), 64L << 20));
          if (version != null) {
            return version;
          }
        }
      }
      return null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static String findVersion(TargetMemory memory, long start, long size) {
    byte[] block = new byte[1 << 20];
    long done = 0;
    while (done < size) {
      int want = (int) Math.min(block.length, size - done);
      int n = memory.read(start + done, block, 0, want);
      if (n == 0) {
        // A page the target cannot read: go on at the next page.
        long next = ((start + done) & ~0xfffL) + 0x1000;
        done = next - start;
        continue;
      }
      int hit = indexOf(block, n, VERSION_MARK);
      if (hit >= 0) {
        byte[] text = new byte[128];
        int m = memory.read(start + done + hit + VERSION_MARK.length, text, 0, text.length);
        int e = 0;
        while (e < m && text[e] != 0) {
          e++;
        }
        return new String(text, 0, e, StandardCharsets.US_ASCII).strip();
      }
      // The next block overlaps this one by the mark's length, so a mark across both is found.
      done += Math.max(1, n - VERSION_MARK.length);
    }
    return null;
  }

  private static int indexOf(byte[] hay, int length, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /** Lower-case hex of a build-id. */
  public static String hex(byte[] id) {
    StringBuilder s = new StringBuilder(id.length * 2);
    for (byte b : id) {
      s.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    }
    return s.toString();
  }

  private interface Reader {
    ByteBuffer read(long offset, int length);
  }

  private static boolean isElf64(ByteBuffer h) {
    return h != null
        && h.limit() == 64
        && h.get(0) == 0x7f
        && h.get(1) == 'E'
        && h.get(2) == 'L'
        && h.get(3) == 'F'
        && h.get(4) == 2
        && h.get(5) == 1;
  }

  private static ByteBuffer programHeaders(ByteBuffer header, Reader reader) {
    long phoff = header.getLong(32);
    int phentsize = Short.toUnsignedInt(header.getShort(54));
    int phnum = Short.toUnsignedInt(header.getShort(56));
    if (phentsize != 56 || phnum == 0 || phnum > MAX_PHNUM || phoff < 0 || phoff > (1L << 32)) {
      return null;
    }
    ByteBuffer b = reader.read(phoff, phnum * 56);
    return b == null || b.limit() != phnum * 56 ? null : b;
  }

  private static long firstLoadVaddr(ByteBuffer phdrs) {
    for (int at = 0; at < phdrs.limit(); at += 56) {
      if (phdrs.getInt(at) == PT_LOAD) {
        return phdrs.getLong(at + 16) & ~0xfffL;
      }
    }
    return 0;
  }

  // The descriptor of the first GNU NT_GNU_BUILD_ID note in a PT_NOTE segment's bytes.
  private static byte[] buildIdNote(ByteBuffer notes) {
    if (notes == null) {
      return null;
    }
    while (notes.remaining() >= 12) {
      long namesz = Integer.toUnsignedLong(notes.getInt());
      long descsz = Integer.toUnsignedLong(notes.getInt());
      int type = notes.getInt();
      long nameRoom = (namesz + 3) & ~3L;
      long descRoom = (descsz + 3) & ~3L;
      if (nameRoom > notes.remaining() || descRoom > notes.remaining() - nameRoom) {
        return null;
      }
      byte[] name = new byte[(int) namesz];
      notes.get(name);
      notes.position(notes.position() + (int) (nameRoom - namesz));
      if (type == NT_GNU_BUILD_ID
          && namesz == 4
          && name[0] == 'G'
          && name[1] == 'N'
          && name[2] == 'U'
          && name[3] == 0
          && descsz > 0
          && descsz <= 64) {
        byte[] id = new byte[(int) descsz];
        notes.get(id);
        return id;
      }
      notes.position(notes.position() + (int) descRoom);
    }
    return null;
  }

  private static ByteBuffer read(TargetMemory memory, long address, int length) {
    byte[] b = new byte[length];
    int n = memory.read(address, b, 0, length);
    return n == length ? ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN) : null;
  }

  private static ByteBuffer read(FileChannel file, long offset, int length) {
    try {
      if (offset < 0 || offset > file.size() || length > file.size() - offset) {
        return null;
      }
      ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
      while (b.hasRemaining()) {
        if (file.read(b, offset + b.position()) < 0) {
          return null;
        }
      }
      return b.flip();
    } catch (IOException e) {
      return null;
    }
  }
}
