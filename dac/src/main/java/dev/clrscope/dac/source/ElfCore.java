package dev.clrscope.dac.source;

import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.TargetException.Problem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An x86-64 Linux ELF core file, as the kernel or the .NET runtime's createdump writes it: its
 * memory ({@code PT_LOAD} segments), the files the process had mapped ({@code NT_FILE}), its
 * threads' registers ({@code NT_PRSTATUS}) and its command ({@code NT_PRPSINFO}).
 *
 * <p>Every size and offset in the headers and notes is checked against the bytes the file has: a
 * file that is not an ELF core, a core of another architecture, a core cut short and a core whose
 * headers contradict themselves each end in a {@link TargetException} with a one-line message,
 * never in an exception of another type, an endless loop or an allocation the file's size does not
 * justify.
 *
 * <p>Memory is read with positional reads of the file, as large as the caller asks. Memory absent
 * from the core but backed by a mapped file (the clean pages of libraries, which createdump leaves
 * out) is read from that file on this machine, when it still is the file the process mapped: an ELF
 * file is used only if its build-id equals the one in the core's copy of its headers. Pages the
 * core holds always win: relocated pages of a library differ from the file.
 */
public final class ElfCore implements Target {
  private static final int ET_CORE = 4;
  private static final int EM_X86_64 = 62;
  private static final int PT_LOAD = 1;
  private static final int PT_NOTE = 4;
  private static final int PN_XNUM = 0xffff;
  private static final int NT_PRSTATUS = 1;
  private static final int NT_PRPSINFO = 3;
  private static final int NT_AUXV = 6;
  private static final int NT_FILE = 0x46494c45;
  private static final int PHDR_SIZE = 56;
  private static final int PRSTATUS_CURSIG = 12;
  private static final int PRSTATUS_PID = 32;
  private static final int PRSTATUS_REGS = 112;

  /** More program headers than this is a corrupt count, not a core (a real one has thousands). */
  private static final long MAX_SEGMENTS = 4_000_000;

  /** Notes bigger than this are corrupt (a core with 10,000 threads has ~10 MB of notes). */
  private static final long MAX_NOTES = 256L << 20;

  private final Path path;
  private final FileChannel channel;
  // PT_LOAD segments sorted by address: [vaddr, vaddr + memSize) of memory, fileSize bytes of them
  // at offset in the file.
  private final long[] vaddrs;
  private final long[] memSizes;
  private final long[] fileSizes;
  private final long[] offsets;
  private final List<MappedFile> mappedFiles;
  private final List<ThreadRegisters> threads;
  private final Map<Long, Long> auxv;
  private final int pid;
  private final String command;
  private final int[] signalled;
  private final Map<String, FileChannel> backingFiles = new HashMap<>();
  private final Map<String, Boolean> backingVerified = new HashMap<>();
  // For an ELF backing file: its loadable segments, and how far from its headers' vaddrs it is
  // loaded; its pages are read only where the file's own program headers put them.
  private final Map<String, long[][]> backingLoads = new HashMap<>();
  private final Map<String, Long> backingBias = new HashMap<>();

  private ElfCore(Path path, FileChannel channel, Parsed parsed) {
    this.path = path;
    this.channel = channel;
    this.vaddrs = parsed.vaddrs;
    this.memSizes = parsed.memSizes;
    this.fileSizes = parsed.fileSizes;
    this.offsets = parsed.offsets;
    this.mappedFiles = Collections.unmodifiableList(parsed.files);
    this.threads = Collections.unmodifiableList(parsed.threads);
    this.auxv = Collections.unmodifiableMap(parsed.auxv);
    this.pid = parsed.pid != 0 ? parsed.pid : parsed.threads.get(0).threadId();
    this.command = parsed.command;
    this.signalled = parsed.signalled;
  }

  /**
   * Opens and checks a core file.
   *
   * @throws TargetException {@link Problem#NOT_A_CORE} (not a regular file, not ELF, not a core),
   *     {@link Problem#UNSUPPORTED_ARCHITECTURE}, {@link Problem#TRUNCATED_CORE}, {@link
   *     Problem#CORRUPT_CORE}
   */
  public static ElfCore open(Path path) {
    if (!Files.isRegularFile(path)) {
      String what = Files.exists(path) ? "is not a regular file" : "does not exist";
      throw new TargetException(Problem.NOT_A_CORE, path + " " + what + ": give a core file");
    }
    FileChannel channel;
    try {
      channel = FileChannel.open(path, StandardOpenOption.READ);
    } catch (NoSuchFileException e) {
      throw new TargetException(Problem.NOT_A_CORE, path + " does not exist: give a core file", e);
    } catch (IOException e) {
      throw new TargetException(
          Problem.NOT_A_CORE, "cannot read " + path + ": " + e.getMessage(), e);
    }
    try {
      long size = channel.size();
      Parsed parsed = new Parser(path, channel, size).parse();
      return new ElfCore(path, channel, parsed);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new TargetException(
          Problem.NOT_A_CORE, "cannot read " + path + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      closeQuietly(channel);
      throw e;
    }
  }

  /** The core file. */
  public Path path() {
    return path;
  }

  /** The dumped process's id (0 when the core does not say). */
  @Override
  public int pid() {
    return pid;
  }

  /** The dumped process's command line as the kernel abbreviates it (up to 80 bytes), or "". */
  public String command() {
    return command;
  }

  /** The files the process had mapped, in the order the core lists them. */
  @Override
  public List<MappedFile> mappedFiles() {
    return mappedFiles;
  }

  /** The registers of every thread the core holds, the crashing or first thread first. */
  @Override
  public List<ThreadRegisters> threads() {
    return threads;
  }

  /**
   * The thread a signal stopped and the signal ({@code pr_cursig} of its NT_PRSTATUS: createdump
   * and the kernel set it on the thread that crashed), or null when no thread has one.
   */
  @Override
  public int[] signalled() {
    return signalled == null ? null : signalled.clone();
  }

  /** The process's auxiliary vector ({@code AT_*} type to value), empty if the core has none. */
  public Map<Long, Long> auxv() {
    return auxv;
  }

  @Override
  public int read(long address, byte[] dst, int offset, int length) {
    int done = 0;
    while (done < length) {
      long at = address + done;
      int n = readSome(at, dst, offset + done, length - done);
      if (n <= 0) {
        break;
      }
      done += n;
    }
    return done;
  }

  // Reads from one source: a segment's bytes in the core, or a mapped file's.
  private int readSome(long at, byte[] dst, int offset, int length) {
    int i = segmentAt(at);
    if (i >= 0) {
      long into = at - vaddrs[i];
      if (Long.compareUnsigned(into, fileSizes[i]) < 0) {
        long left = fileSizes[i] - into;
        int n = (int) Math.min(length, left);
        return readFile(channel, offsets[i] + into, dst, offset, n);
      }
    }
    int n = readMapped(at, dst, offset, limitToNextSegment(at, length));
    if (n > 0) {
      return n;
    }
    return 0;
  }

  // A mapped file must not shadow a later segment the core holds.
  private int limitToNextSegment(long at, int length) {
    int next = segmentAt(at) + 1;
    if (next == 0) {
      next = insertionPoint(at);
    }
    if (next < vaddrs.length) {
      long gap = vaddrs[next] - at;
      if (Long.compareUnsigned(gap, length) < 0) {
        return (int) gap;
      }
    }
    return length;
  }

  private int readMapped(long at, byte[] dst, int offset, int length) {
    if (length <= 0) {
      return 0;
    }
    for (MappedFile f : mappedFiles) {
      if (!f.contains(at)) {
        continue;
      }
      FileChannel file = backing(f);
      if (file == null) {
        return 0;
      }
      long fileOffset = f.fileOffset() + (at - f.start());
      long left = f.end() - at;
      long[][] loads;
      long bias;
      synchronized (this) {
        loads = backingLoads.get(f.path());
        bias = backingBias.getOrDefault(f.path(), 0L);
      }
      if (loads != null) {
        // Only read-only segments: a writable one's bytes in the file are its initial values, not
        // what the process had (a page of the runtime's data left out of a damaged core would show
        // the DAC null globals). The mapping must put this byte where the file's program headers
        // do (a damaged NT_FILE entry would otherwise show another part of the file), and only
        // the segment's own bytes count (past them is zero-filled memory, not the file's next).
        left = -1;
        for (long[] seg : loads) {
          long into = fileOffset - seg[0];
          if (into >= 0 && into < seg[2] && at == bias + seg[1] + into) {
            long toEnd = f.end() - at;
            left = toEnd < 0 ? seg[2] - into : Math.min(toEnd, seg[2] - into);
            break;
          }
        }
        if (left <= 0) {
          return 0;
        }
      }
      // Unsigned: a damaged mapping may span more than 2^63 bytes.
      int n = Long.compareUnsigned(left, length) < 0 ? (int) left : length;
      return readFile(file, fileOffset, dst, offset, n);
    }
    return 0;
  }

  private synchronized FileChannel backing(MappedFile f) {
    Boolean ok = backingVerified.get(f.path());
    if (ok == null) {
      ok = verifyBacking(f.path());
      backingVerified.put(f.path(), ok);
    }
    return ok ? backingFiles.get(f.path()) : null;
  }

  // Opens a mapped file for its clean pages when it still is the file the process mapped.
  private boolean verifyBacking(String file) {
    Path p = Path.of(file);
    if (!Files.isRegularFile(p)) {
      return false;
    }
    FileChannel fc;
    try {
      fc = FileChannel.open(p, StandardOpenOption.READ);
    } catch (IOException | RuntimeException e) {
      return false;
    }
    byte[] inFile = ElfImage.buildIdOfFile(fc);
    if (inFile != null) {
      // An ELF file: its build-id must be the one in the core's copy of its headers; with no
      // copy in the core (the headers' page left out) the file cannot be checked, so not used.
      byte[] inCore = coreOnlyBuildId(file);
      long[][] loads = ElfImage.loadSegments(fc);
      long base = imageBase(file);
      if (inCore == null
          || !Arrays.equals(inCore, inFile)
          || loads == null
          || loads.length == 0
          || base == 0) {
        closeQuietly(fc);
        return false;
      }
      backingLoads.put(file, loads);
      backingBias.put(file, base - (loads[0][1] & ~0xfffL));
    }
    backingFiles.put(file, fc);
    return true;
  }

  // Where the file's first page is mapped (its lowest mapping at file offset 0), or 0.
  private long imageBase(String file) {
    long base = 0;
    for (MappedFile f : mappedFiles) {
      if (f.path().equals(file)
          && f.fileOffset() == 0
          && (base == 0 || Long.compareUnsigned(f.start(), base) < 0)) {
        base = f.start();
      }
    }
    return base;
  }

  private byte[] coreOnlyBuildId(String file) {
    for (MappedFile f : mappedFiles) {
      if (f.path().equals(file) && f.fileOffset() == 0) {
        // Only the core's own segments: the file under test must not vouch for itself.
        return ElfImage.buildIdInMemory(this::readCoreOnly, f.start());
      }
    }
    return null;
  }

  private int readCoreOnly(long address, byte[] dst, int offset, int length) {
    int i = segmentAt(address);
    if (i < 0) {
      return 0;
    }
    long into = address - vaddrs[i];
    if (Long.compareUnsigned(into, fileSizes[i]) >= 0) {
      return 0;
    }
    int n = (int) Math.min(length, fileSizes[i] - into);
    return readFile(channel, offsets[i] + into, dst, offset, n);
  }

  private int segmentAt(long address) {
    int hi = insertionPoint(address) - 1;
    if (hi >= 0 && Long.compareUnsigned(address - vaddrs[hi], memSizes[hi]) < 0) {
      return hi;
    }
    return -1;
  }

  // The index of the first segment starting above address.
  private int insertionPoint(long address) {
    int lo = 0;
    int hi = vaddrs.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(vaddrs[mid], address) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private static int readFile(FileChannel file, long position, byte[] dst, int offset, int length) {
    if (position < 0 || length <= 0) {
      return 0;
    }
    ByteBuffer buf = ByteBuffer.wrap(dst, offset, length);
    try {
      while (buf.hasRemaining()) {
        int n = file.read(buf, position + buf.position() - offset);
        if (n <= 0) {
          break;
        }
      }
    } catch (IOException e) {
      // A read error is memory we cannot read; what was read stands.
    }
    return buf.position() - offset;
  }

  @Override
  public void close() {
    closeQuietly(channel);
    backingFiles.values().forEach(ElfCore::closeQuietly);
    backingFiles.clear();
  }

  private static void closeQuietly(FileChannel c) {
    try {
      c.close();
    } catch (IOException e) {
      // Closing a read-only file loses nothing.
    }
  }

  @Override
  public String describe() {
    return "core " + path;
  }

  @Override
  public String toString() {
    return "core " + path + " (pid " + pid + ", " + threads.size() + " threads)";
  }

  private static final class Parsed {
    long[] vaddrs;
    long[] memSizes;
    long[] fileSizes;
    long[] offsets;
    final List<MappedFile> files = new ArrayList<>();
    final List<ThreadRegisters> threads = new ArrayList<>();
    final Map<Long, Long> auxv = new HashMap<>();
    int pid;
    String command = "";
    int[] signalled;
  }

  /** Reads and checks the headers and notes. */
  private static final class Parser {
    private final Path path;
    private final FileChannel channel;
    private final long size;
    private final Parsed out = new Parsed();

    Parser(Path path, FileChannel channel, long size) {
      this.path = path;
      this.channel = channel;
      this.size = size;
    }

    Parsed parse() throws IOException {
      ByteBuffer header = read(0, (int) Math.min(64, size));
      if (header.remaining() < 4
          || header.get(0) != 0x7f
          || header.get(1) != 'E'
          || header.get(2) != 'L'
          || header.get(3) != 'F') {
        throw notACore("is not an ELF file");
      }
      if (header.remaining() < 64) {
        throw new TargetException(
            Problem.TRUNCATED_CORE,
            path
                + " is cut short: "
                + size
                + " bytes, less than an ELF header; take the dump again");
      }
      int elfClass = header.get(4);
      int data = header.get(5);
      if (data != 1) {
        throw new TargetException(
            Problem.UNSUPPORTED_ARCHITECTURE,
            path + " is a big-endian ELF file; clrscope reads x86-64 (little-endian) cores only");
      }
      int type = Short.toUnsignedInt(header.getShort(16));
      int machine = Short.toUnsignedInt(header.getShort(18));
      if (type != ET_CORE) {
        throw notACore("is an ELF " + typeName(type) + ", not a core dump");
      }
      if (elfClass != 2 || machine != EM_X86_64) {
        throw new TargetException(
            Problem.UNSUPPORTED_ARCHITECTURE,
            path
                + " is a core of a "
                + machineName(machine, elfClass)
                + " process; clrscope reads x86-64 cores only: analyze it on a machine of that"
                + " architecture with dotnet-dump");
      }
      long phoff = header.getLong(32);
      long shoff = header.getLong(40);
      int phentsize = Short.toUnsignedInt(header.getShort(54));
      long phnum = Short.toUnsignedInt(header.getShort(56));
      int shentsize = Short.toUnsignedInt(header.getShort(58));
      if (phnum == PN_XNUM) {
        // More than 65534 segments: the real count is section header 0's sh_info.
        if (shentsize < 64 || !fits(shoff, 64)) {
          throw corrupt("its segment count is in a section header that is not there");
        }
        phnum = Integer.toUnsignedLong(read(shoff + 44, 4).getInt(0));
      }
      if (phentsize != PHDR_SIZE) {
        throw corrupt("its program headers are " + phentsize + " bytes, not " + PHDR_SIZE);
      }
      if (phnum == 0 || phnum > MAX_SEGMENTS) {
        throw corrupt("it has " + phnum + " program headers");
      }
      if (!fits(phoff, phnum * PHDR_SIZE)) {
        throw truncated(phoff + phnum * PHDR_SIZE, "its program headers");
      }
      readSegments(phoff, (int) phnum);
      return out;
    }

    private void readSegments(long phoff, int phnum) throws IOException {
      long[] v = new long[phnum];
      long[] m = new long[phnum];
      long[] f = new long[phnum];
      long[] o = new long[phnum];
      int loads = 0;
      long notesTotal = 0;
      List<long[]> notes = new ArrayList<>();
      long maxEnd = 0;
      // Program headers in batches, so a core with a million segments is not one huge array.
      int batch = 4096;
      for (int first = 0; first < phnum; first += batch) {
        int n = Math.min(batch, phnum - first);
        ByteBuffer ph = read(phoff + (long) first * PHDR_SIZE, n * PHDR_SIZE);
        for (int k = 0; k < n; k++) {
          int at = k * PHDR_SIZE;
          int ptype = ph.getInt(at);
          long offset = ph.getLong(at + 8);
          long vaddr = ph.getLong(at + 16);
          long filesz = ph.getLong(at + 32);
          long memsz = ph.getLong(at + 40);
          if (ptype != PT_LOAD && ptype != PT_NOTE) {
            continue;
          }
          if (offset < 0 || filesz < 0) {
            throw corrupt("segment " + (first + k) + " has a negative offset or size");
          }
          long end = offset + filesz;
          if (end < 0) {
            throw corrupt("segment " + (first + k) + " ends past 2^63");
          }
          maxEnd = Math.max(maxEnd, end);
          if (ptype == PT_NOTE) {
            notesTotal += filesz;
            if (notesTotal > MAX_NOTES) {
              throw corrupt("its notes claim " + notesTotal + " bytes");
            }
            notes.add(new long[] {offset, filesz});
            continue;
          }
          if (Long.compareUnsigned(memsz, filesz) < 0) {
            throw corrupt("segment " + (first + k) + " holds more bytes than its memory size");
          }
          if (memsz == 0) {
            continue;
          }
          if (vaddr + memsz != 0 && Long.compareUnsigned(vaddr + memsz, vaddr) < 0) {
            throw corrupt("segment " + (first + k) + " wraps around the address space");
          }
          v[loads] = vaddr;
          m[loads] = memsz;
          f[loads] = filesz;
          o[loads] = offset;
          loads++;
        }
      }
      if (maxEnd > size) {
        throw truncated(maxEnd, "its memory segments");
      }
      if (loads == 0) {
        throw corrupt("it holds no memory (no PT_LOAD segment)");
      }
      sortByAddress(v, m, f, o, loads);
      out.vaddrs = Arrays.copyOf(v, loads);
      out.memSizes = Arrays.copyOf(m, loads);
      out.fileSizes = Arrays.copyOf(f, loads);
      out.offsets = Arrays.copyOf(o, loads);
      if (notes.isEmpty()) {
        throw corrupt("it has no notes (no threads, no mapped files)");
      }
      for (long[] note : notes) {
        readNotes(read(note[0], (int) note[1]));
      }
      if (out.threads.isEmpty()) {
        throw corrupt("it has no thread (no NT_PRSTATUS note)");
      }
    }

    private static void sortByAddress(long[] v, long[] m, long[] f, long[] o, int n) {
      Integer[] order = new Integer[n];
      boolean sorted = true;
      for (int i = 0; i < n; i++) {
        order[i] = i;
        if (i > 0 && Long.compareUnsigned(v[i - 1], v[i]) > 0) {
          sorted = false;
        }
      }
      if (sorted) {
        return;
      }
      Arrays.sort(order, (a, b) -> Long.compareUnsigned(v[a], v[b]));
      long[][] cols = {v, m, f, o};
      for (long[] col : cols) {
        long[] copy = Arrays.copyOf(col, n);
        for (int i = 0; i < n; i++) {
          col[i] = copy[order[i]];
        }
      }
    }

    private void readNotes(ByteBuffer notes) {
      while (notes.remaining() >= 12) {
        long namesz = Integer.toUnsignedLong(notes.getInt());
        long descsz = Integer.toUnsignedLong(notes.getInt());
        int type = notes.getInt();
        long nameRoom = align4(namesz);
        long descRoom = align4(descsz);
        if (nameRoom > notes.remaining() || descRoom > notes.remaining() - nameRoom) {
          throw corrupt("a note claims more bytes than its segment holds");
        }
        byte[] name = new byte[(int) namesz];
        notes.get(name);
        notes.position(notes.position() + (int) (nameRoom - namesz));
        ByteBuffer desc = notes.slice().limit((int) descsz).order(ByteOrder.LITTLE_ENDIAN);
        notes.position(notes.position() + (int) descRoom);
        if (!isCoreName(name)) {
          continue;
        }
        switch (type) {
          case NT_PRSTATUS -> readPrStatus(desc);
          case NT_PRPSINFO -> readPrPsInfo(desc);
          case NT_FILE -> readFiles(desc);
          case NT_AUXV -> readAuxv(desc);
          default -> {
            // Floating-point registers, signal info, x86 state: not needed.
          }
        }
      }
    }

    private static boolean isCoreName(byte[] name) {
      int n = name.length;
      while (n > 0 && name[n - 1] == 0) {
        n--;
      }
      return new String(name, 0, n, StandardCharsets.US_ASCII).equals("CORE");
    }

    private void readPrStatus(ByteBuffer d) {
      if (d.remaining() < PRSTATUS_REGS + 8 * ThreadRegisters.COUNT) {
        throw corrupt("a thread's NT_PRSTATUS note is " + d.remaining() + " bytes");
      }
      int tid = d.getInt(PRSTATUS_PID);
      short signal = d.getShort(PRSTATUS_CURSIG);
      if (signal > 0 && out.signalled == null) {
        out.signalled = new int[] {tid, signal};
      }
      long[] regs = new long[ThreadRegisters.COUNT];
      for (int i = 0; i < regs.length; i++) {
        regs[i] = d.getLong(PRSTATUS_REGS + 8 * i);
      }
      out.threads.add(new ThreadRegisters(tid, regs));
    }

    private void readPrPsInfo(ByteBuffer d) {
      if (d.remaining() < 136) {
        throw corrupt("its NT_PRPSINFO note is " + d.remaining() + " bytes");
      }
      out.pid = d.getInt(24);
      byte[] args = new byte[80];
      d.get(56, args);
      int n = 0;
      while (n < args.length && args[n] != 0) {
        n++;
      }
      out.command = new String(args, 0, n, StandardCharsets.UTF_8).strip();
    }

    private void readFiles(ByteBuffer d) {
      if (d.remaining() < 16) {
        throw corrupt("its NT_FILE note is " + d.remaining() + " bytes");
      }
      long count = d.getLong(0);
      long pageSize = d.getLong(8);
      if (count < 0 || count > (d.remaining() - 16) / 24) {
        throw corrupt("its NT_FILE note lists " + count + " files in " + d.remaining() + " bytes");
      }
      if (pageSize <= 0 || pageSize > (1 << 30) || Long.bitCount(pageSize) != 1) {
        throw corrupt("its NT_FILE note has a page size of " + pageSize);
      }
      int n = (int) count;
      int names = 16 + 24 * n;
      int cursor = names;
      for (int i = 0; i < n; i++) {
        int end = cursor;
        while (end < d.remaining() && d.get(end) != 0) {
          end++;
        }
        if (end >= d.remaining()) {
          throw corrupt("its NT_FILE note's names end early");
        }
        byte[] name = new byte[end - cursor];
        d.get(cursor, name);
        cursor = end + 1;
        long start = d.getLong(16 + 24 * i);
        long stop = d.getLong(24 + 24 * i);
        long pages = d.getLong(32 + 24 * i);
        if (Long.compareUnsigned(stop, start) < 0
            || pages < 0
            || pages > Long.MAX_VALUE / pageSize) {
          throw corrupt("its NT_FILE note has a mapping that ends before it starts");
        }
        out.files.add(
            new MappedFile(
                start, stop, pages * pageSize, new String(name, StandardCharsets.UTF_8)));
      }
    }

    private void readAuxv(ByteBuffer d) {
      for (int at = 0; at + 16 <= d.remaining(); at += 16) {
        long type = d.getLong(at);
        if (type == 0) {
          break;
        }
        out.auxv.put(type, d.getLong(at + 8));
      }
    }

    private boolean fits(long offset, long length) {
      return offset >= 0 && length >= 0 && offset <= size && length <= size - offset;
    }

    private ByteBuffer read(long offset, int length) throws IOException {
      if (!fits(offset, length)) {
        throw truncated(offset + length, "its headers");
      }
      ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
      while (b.hasRemaining()) {
        if (channel.read(b, offset + b.position()) < 0) {
          throw truncated(offset + length, "its headers");
        }
      }
      return b.flip();
    }

    private TargetException notACore(String what) {
      return new TargetException(
          Problem.NOT_A_CORE, path + " " + what + ": give a core file (clrscope dump writes one)");
    }

    private TargetException truncated(long needed, String what) {
      return new TargetException(
          Problem.TRUNCATED_CORE,
          path
              + " is cut short: "
              + what
              + " reach byte "
              + needed
              + " of a "
              + size
              + "-byte file (the dump was interrupted or the disk was full); take the dump again");
    }

    private TargetException corrupt(String what) {
      return new TargetException(
          Problem.CORRUPT_CORE, path + " is a damaged core: " + what + "; take the dump again");
    }
  }

  private static long align4(long n) {
    return (n + 3) & ~3L;
  }

  private static String typeName(int type) {
    return switch (type) {
      case 1 -> "relocatable object";
      case 2 -> "executable";
      case 3 -> "shared library or executable";
      default -> "file of type " + type;
    };
  }

  static String machineName(int machine, int elfClass) {
    return switch (machine) {
      case 3 -> "x86 (32-bit)";
      case 40 -> "ARM (32-bit)";
      case 183 -> "ARM64";
      case 243 -> elfClass == 1 ? "RISC-V (32-bit)" : "RISC-V";
      case 258 -> "LoongArch64";
      case 62 -> "x86-64 (32-bit ELF)";
      default -> "machine-type-" + machine;
    };
  }
}
