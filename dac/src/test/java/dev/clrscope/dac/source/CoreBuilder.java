package dev.clrscope.dac.source;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes small x86-64 ELF core files laid out as the kernel and createdump write them: the ELF
 * header, program headers (one PT_NOTE, then PT_LOADs), the notes (NT_PRPSINFO, NT_FILE, NT_AUXV,
 * one NT_PRSTATUS per thread) and each segment's bytes.
 */
final class CoreBuilder {
  int machine = 62;
  int elfClass = 2;
  int type = 4;
  int pid = 4242;
  String psargs = "dotnet app.dll";
  private final List<long[]> threads = new ArrayList<>();
  private final List<long[]> loads = new ArrayList<>();
  private final List<byte[]> loadBytes = new ArrayList<>();
  private final List<MappedFile> files = new ArrayList<>();

  CoreBuilder thread(int tid, long rip, long rsp) {
    long[] regs = new long[ThreadRegisters.COUNT];
    for (int i = 0; i < regs.length; i++) {
      regs[i] = 0x1000L * tid + i;
    }
    regs[ThreadRegisters.RIP] = rip;
    regs[ThreadRegisters.RSP] = rsp;
    long[] entry = new long[regs.length + 1];
    entry[0] = tid;
    System.arraycopy(regs, 0, entry, 1, regs.length);
    threads.add(entry);
    return this;
  }

  /** Memory at {@code vaddr}: {@code bytes} in the core, {@code memSize} in the process. */
  CoreBuilder load(long vaddr, byte[] bytes, long memSize) {
    loads.add(new long[] {vaddr, memSize});
    loadBytes.add(bytes);
    return this;
  }

  CoreBuilder file(long start, long end, long offset, String path) {
    files.add(new MappedFile(start, end, offset, path));
    return this;
  }

  byte[] build() {
    byte[] notes = notes();
    int phnum = 1 + loads.size();
    long phoff = 64;
    long notesOffset = phoff + 56L * phnum;
    long dataOffset = (notesOffset + notes.length + 4095) & ~4095L;
    ByteBuffer out =
        ByteBuffer.allocate((int) (dataOffset + totalLoadBytes())).order(ByteOrder.LITTLE_ENDIAN);
    out.put(new byte[] {0x7f, 'E', 'L', 'F', (byte) elfClass, 1, 1, 0});
    out.position(16);
    out.putShort((short) type).putShort((short) machine).putInt(1);
    out.putLong(0).putLong(phoff).putLong(0).putInt(0);
    out.putShort((short) 64).putShort((short) 56).putShort((short) phnum);
    out.putShort((short) 64).putShort((short) 0).putShort((short) 0);
    out.position((int) phoff);
    phdr(out, 4, 0, notesOffset, 0, notes.length, 0);
    long at = dataOffset;
    for (int i = 0; i < loads.size(); i++) {
      byte[] b = loadBytes.get(i);
      phdr(out, 1, 6, at, loads.get(i)[0], b.length, loads.get(i)[1]);
      at += b.length;
    }
    out.position((int) notesOffset);
    out.put(notes);
    out.position((int) dataOffset);
    for (byte[] b : loadBytes) {
      out.put(b);
    }
    return out.array();
  }

  private long totalLoadBytes() {
    long sum = 0;
    for (byte[] b : loadBytes) {
      sum += b.length;
    }
    return sum;
  }

  private static void phdr(
      ByteBuffer out, int type, int flags, long offset, long vaddr, long filesz, long memsz) {
    out.putInt(type).putInt(flags).putLong(offset).putLong(vaddr).putLong(0);
    out.putLong(filesz).putLong(memsz).putLong(type == 1 ? 4096 : 0);
  }

  private byte[] notes() {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    ByteBuffer ps = ByteBuffer.allocate(136).order(ByteOrder.LITTLE_ENDIAN);
    ps.putInt(24, pid);
    byte[] args = psargs.getBytes(StandardCharsets.UTF_8);
    ps.position(56);
    ps.put(args, 0, Math.min(args.length, 79));
    note(all, 3, ps.array());

    ByteArrayOutputStream names = new ByteArrayOutputStream();
    ByteBuffer head = ByteBuffer.allocate(16 + 24 * files.size()).order(ByteOrder.LITTLE_ENDIAN);
    head.putLong(files.size()).putLong(4096);
    for (MappedFile f : files) {
      head.putLong(f.start()).putLong(f.end()).putLong(f.fileOffset() / 4096);
      byte[] n = f.path().getBytes(StandardCharsets.UTF_8);
      names.write(n, 0, n.length);
      names.write(0);
    }
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    file.write(head.array(), 0, head.capacity());
    file.write(names.toByteArray(), 0, names.size());
    note(all, 0x46494c45, file.toByteArray());

    ByteBuffer auxv = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
    auxv.putLong(6).putLong(4096).putLong(0).putLong(0);
    note(all, 6, auxv.array());

    for (long[] t : threads) {
      ByteBuffer st = ByteBuffer.allocate(336).order(ByteOrder.LITTLE_ENDIAN);
      st.putInt(32, (int) t[0]);
      for (int i = 0; i < ThreadRegisters.COUNT; i++) {
        st.putLong(112 + 8 * i, t[i + 1]);
      }
      note(all, 1, st.array());
    }
    return all.toByteArray();
  }

  private static void note(ByteArrayOutputStream out, int type, byte[] desc) {
    ByteBuffer h = ByteBuffer.allocate(12 + 8).order(ByteOrder.LITTLE_ENDIAN);
    h.putInt(5).putInt(desc.length).putInt(type);
    h.put("CORE".getBytes(StandardCharsets.US_ASCII)).put((byte) 0).put(new byte[3]);
    out.write(h.array(), 0, h.capacity());
    out.write(desc, 0, desc.length);
    int pad = (4 - desc.length % 4) % 4;
    out.write(new byte[pad], 0, pad);
  }

  /** A minimal ELF shared library image: header, one PT_LOAD, one PT_NOTE with a build-id. */
  static byte[] elfImage(byte[] buildId, int size) {
    ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0});
    b.position(16);
    b.putShort((short) 3).putShort((short) 62).putInt(1);
    b.putLong(0).putLong(64).putLong(0).putInt(0);
    b.putShort((short) 64).putShort((short) 56).putShort((short) 2);
    b.putShort((short) 64).putShort((short) 0).putShort((short) 0);
    b.position(64);
    phdr(b, 1, 5, 0, 0, size, size);
    int noteAt = 64 + 2 * 56;
    int noteSize = 16 + buildId.length;
    phdr(b, 4, 4, noteAt, noteAt, noteSize, noteSize);
    b.position(noteAt);
    b.putInt(4).putInt(buildId.length).putInt(3);
    b.put("GNU".getBytes(StandardCharsets.US_ASCII)).put((byte) 0);
    b.put(buildId);
    return b.array();
  }
}
