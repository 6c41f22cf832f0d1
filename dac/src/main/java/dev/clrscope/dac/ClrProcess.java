package dev.clrscope.dac;

import dev.clrscope.dac.TargetException.Problem;
import dev.clrscope.dac.interop.ComObject;
import dev.clrscope.dac.interop.DacLibrary;
import dev.clrscope.dac.interop.DataTargetObject;
import dev.clrscope.dac.interop.MetadataImport;
import dev.clrscope.dac.interop.SosDac;
import dev.clrscope.dac.interop.XclrData;
import dev.clrscope.dac.target.ElfCore;
import dev.clrscope.dac.target.ElfImage;
import dev.clrscope.dac.target.LiveProcess;
import dev.clrscope.dac.target.MappedFile;
import dev.clrscope.dac.target.Target;
import dev.clrscope.dac.target.TargetMemory;
import dev.clrscope.dac.target.ThreadRegisters;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A .NET process's runtime as its own DAC sees it, from a core file ({@link #openCore}) or from the
 * live process, paused ({@link #attach}). It is the entry to the model: the runtime and its GC
 * heaps, a fast walk of every object, types and their fields, objects and their values, roots,
 * threads and their stacks, exceptions.
 *
 * <p><b>Threads.</b> The DAC is not thread-safe and a ptrace tracer is a thread, so one thread owns
 * both; every public method may be called from any thread and runs on that owner. Visitors run on
 * the owner thread and may call back into this object.
 *
 * <p><b>Failures.</b> What is wrong with the target, its runtime, the DAC or an address given is a
 * {@link TargetException} with a one-line message. A live process is released (never left stopped
 * or traced) on {@link #close}, on an exception while opening, and at JVM shutdown.
 */
public final class ClrProcess implements AutoCloseable {
  /** The smallest object the GC makes (x64): header, method table, one pointer of room. */
  static final long MIN_OBJECT_SIZE = 24;

  private static final Pattern PRODUCT_VERSION =
      Pattern.compile("/Microsoft\\.NETCore\\.App/([^/]+)/libcoreclr\\.so$");

  private final Owner owner;
  private final Target target;
  private final DataTargetObject dataTarget;
  private final SosDac sos;
  private final XclrData xclr;
  private final RuntimeInfo runtime;
  private final List<GcHeap> heaps;
  private final SosDac.UsefulGlobals globals;
  private final LongMap<ClrType> types = new LongMap<>();
  private final Set<Long> notTypes = new HashSet<>();
  private final Map<Long, MetadataImport> metadata = new HashMap<>();
  private final Set<Long> noMetadata = new HashSet<>();
  private final LongMap<long[]> staticBases = new LongMap<>();
  private final ThreadReader threadReader;
  private final RootReader rootReader;
  private final byte[] word = new byte[8];
  private MemoryWindow refWindow;
  private final ByteBuffer wordView = ByteBuffer.wrap(word).order(ByteOrder.LITTLE_ENDIAN);
  private volatile boolean closed;
  private Thread shutdownHook;
  private long pausedAtClose;

  /**
   * What is found before the DAC reads the target, and for a live process before it is paused:
   * where the runtime is, its build, and its DAC, loaded.
   */
  private record Prepared(
      MappedFile coreclr,
      String buildId,
      String fileVersion,
      String commit,
      String productVersion,
      DacLocator.Found dac,
      DacLibrary library) {}

  private static Prepared prepare(Target target, DacOptions options, String coreclrRoot) {
    MappedFile coreclr = findCoreclr(target);
    byte[] buildId = ElfImage.buildIdInMemory(target, coreclr.start());
    Path coreclrPath = Path.of((coreclrRoot == null ? "" : coreclrRoot) + coreclr.path());
    DacLocator.Found dac = DacLocator.locate(coreclrPath, buildId, options);
    String version = ElfImage.versionInMemory(target, coreclr.start());
    if (version == null
        && buildId != null
        && java.util.Arrays.equals(buildId, ElfImage.buildIdOfFile(coreclrPath))) {
      version = ElfImage.versionInFile(coreclrPath);
    }
    String fileVersion = null;
    String commit = null;
    if (version != null) {
      int at = version.indexOf("@Commit:");
      fileVersion = (at < 0 ? version : version.substring(0, at)).strip();
      commit = at < 0 ? null : version.substring(at + 8).strip();
    }
    Matcher m = PRODUCT_VERSION.matcher(coreclr.path());
    String productVersion = m.find() ? m.group(1) : null;
    return new Prepared(
        coreclr,
        buildId == null ? "unknown" : ElfImage.hex(buildId),
        fileVersion,
        commit,
        productVersion,
        dac,
        DacLibrary.load(dac.dac()));
  }

  private ClrProcess(Owner owner, Target target, Prepared prepared) {
    this.owner = owner;
    this.target = target;
    MappedFile coreclr = prepared.coreclr();
    String fileVersion = prepared.fileVersion();
    String commit = prepared.commit();
    String productVersion = prepared.productVersion();
    DacLocator.Found dac = prepared.dac();
    long coreclrBase = coreclr.start();
    dataTarget =
        new DataTargetObject(
            new DataTargetObject.Source() {
              @Override
              public int read(long address, byte[] dst, int length) {
                return target.read(address, dst, 0, length);
              }

              @Override
              public long imageBase(String fileName) {
                return ClrProcess.imageBase(target, fileName);
              }

              @Override
              public long runtimeBase() {
                return coreclrBase;
              }

              @Override
              public byte[] threadContext(int threadId) {
                for (ThreadRegisters r : target.threads()) {
                  if (r.threadId() == threadId) {
                    return r.toContext();
                  }
                }
                return null;
              }
            });
    String idHex = prepared.buildId();
    ComObject process = prepared.library().createProcess(dataTarget, idHex);
    SosDac s = SosDac.of(process);
    if (s == null) {
      throw new TargetException(
          Problem.DAC_FAILED, "the DAC " + dac.dac() + " has no ISOSDacInterface: it is not a DAC");
    }
    sos = s;
    xclr = new XclrData(process);
    SosDac.GcHeapData gc = sos.gcHeapData();
    if (gc == null) {
      throw new TargetException(
          Problem.DAC_FAILED,
          "the DAC cannot read the GC's state in "
              + target.describe()
              + " (the runtime was not initialised yet, or the dump lacks its memory)");
    }
    globals = sos.usefulGlobals();
    if (globals == null) {
      throw new TargetException(
          Problem.DAC_FAILED, "the DAC cannot read the runtime's common types");
    }
    heaps = Collections.unmodifiableList(readHeaps(gc));
    boolean regions =
        !heaps.isEmpty()
            && heaps.get(0).generations().size() >= 2
            && heaps.get(0).generations().get(0).startSegment()
                != heaps.get(0).generations().get(1).startSegment();
    refWindow = new MemoryWindow(target, 64 << 10);
    threadReader = new ThreadReader(this);
    rootReader = new RootReader(this, threadReader);
    runtime =
        new RuntimeInfo(
            fileVersion,
            commit,
            productVersion,
            coreclr.path(),
            coreclrBase,
            idHex,
            dac.dac(),
            dac.how(),
            gc.serverMode(),
            regions,
            gc.heapCount(),
            gc.maxGeneration());
  }

  /**
   * Opens a core file of a .NET process and its runtime's DAC.
   *
   * @throws TargetException when the file is not a readable x86-64 core of a .NET process, or its
   *     DAC is not found or fails
   */
  public static ClrProcess openCore(Path core, DacOptions options) {
    Owner owner = new Owner("clrscope-dac " + core.getFileName());
    try {
      return owner.call(
          () -> {
            ElfCore elf = ElfCore.open(core);
            try {
              return new ClrProcess(owner, elf, prepare(elf, options, null));
            } catch (RuntimeException | Error e) {
              elf.close();
              throw e;
            }
          });
    } catch (RuntimeException | Error e) {
      owner.close();
      throw e;
    }
  }

  /**
   * Pauses the live process {@code pid} (every thread, with ptrace) and opens its runtime's DAC.
   * The process stays paused until {@link #close}; it is let go also when opening fails and at JVM
   * shutdown (Ctrl+C, SIGTERM). {@link #paused} says for how long it was paused.
   *
   * @throws TargetException when the process is gone, ptrace is refused (with what to do), it is
   *     not a .NET process, or its DAC is not found or fails
   */
  public static ClrProcess attach(int pid, DacOptions options) {
    Owner owner = new Owner("clrscope-dac pid " + pid);
    try {
      ClrProcess process =
          owner.call(
              () -> {
                // Found and loaded while the process runs: the pause is for reading only.
                Prepared prepared;
                try (Target running = LiveProcess.unpaused(pid)) {
                  prepared =
                      running.mappedFiles().isEmpty()
                          ? null
                          : prepare(running, options, "/proc/" + pid + "/root");
                }
                LiveProcess live = LiveProcess.attach(pid);
                try {
                  if (prepared == null) {
                    prepared = prepare(live, options, "/proc/" + pid + "/root");
                  }
                  return new ClrProcess(owner, live, prepared);
                } catch (RuntimeException | Error e) {
                  live.close();
                  throw e;
                }
              });
      process.releaseAtShutdown();
      return process;
    } catch (RuntimeException | Error e) {
      owner.close();
      throw e;
    }
  }

  // A JVM that ends (Ctrl+C, SIGTERM, System.exit) lets the process go first: the owner thread,
  // the tracer, detaches after stopping any long work in progress.
  private void releaseAtShutdown() {
    Thread hook =
        new Thread(
            () -> {
              if (!closed) {
                owner.stopAndRun(target::close, 5_000);
              }
            },
            "clrscope-dac release " + target.pid());
    shutdownHook = hook;
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** How long a live process has been (or was, once closed) paused; zero for a core. */
  public java.time.Duration paused() {
    if (!(target instanceof LiveProcess live)) {
      return java.time.Duration.ZERO;
    }
    return java.time.Duration.ofNanos(closed ? pausedAtClose : call(live::pausedNanos));
  }

  /**
   * The thread a fatal signal stopped, as the core records it (createdump and the kernel mark the
   * thread that crashed), or null: a live process, or a dump written on request.
   */
  public ThreadSignal crashSignal() {
    int[] s = call(target::signalled);
    return s == null ? null : new ThreadSignal(s[0], s[1]);
  }

  /**
   * A thread and the signal that stopped it.
   *
   * @param osThreadId the thread
   * @param signal the signal's number (6 SIGABRT, 11 SIGSEGV)
   */
  public record ThreadSignal(int osThreadId, int signal) {}

  /** Whether this reads a live process rather than a core file. */
  public boolean isLive() {
    return target instanceof LiveProcess;
  }

  private static MappedFile findCoreclr(Target target) {
    MappedFile best = null;
    for (MappedFile f : target.mappedFiles()) {
      if (f.fileName().equals("libcoreclr.so")
          && f.fileOffset() == 0
          && (best == null || Long.compareUnsigned(f.start(), best.start()) < 0)) {
        best = f;
      }
    }
    if (best == null) {
      throw new TargetException(
          Problem.NOT_DOTNET,
          target.describe()
              + " has no .NET runtime: libcoreclr.so is not mapped (not a .NET process, or a"
              + " NativeAOT one, which has no DAC)");
    }
    return best;
  }

  static long imageBase(Target target, String fileName) {
    String wanted = stripExtension(fileName);
    long best = 0;
    for (MappedFile f : target.mappedFiles()) {
      if (f.fileOffset() == 0
          && stripExtension(f.fileName()).equalsIgnoreCase(wanted)
          && (best == 0 || Long.compareUnsigned(f.start(), best) < 0)) {
        best = f.start();
      }
    }
    return best;
  }

  private static String stripExtension(String name) {
    int dot = name.lastIndexOf('.');
    return dot <= 0 ? name : name.substring(0, dot);
  }

  // ---- runtime and heaps ---------------------------------------------------------------------

  /** The runtime, its GC and the DAC in use. */
  public RuntimeInfo runtime() {
    return runtime;
  }

  /** The GC heaps with their generations and segments (regions). */
  public List<GcHeap> heaps() {
    return heaps;
  }

  /** What the process is: {@code core /path} or {@code process 123}. */
  public String describe() {
    return call(target::describe);
  }

  /** The process id. */
  public int pid() {
    return call(target::pid);
  }

  /** Statistics of what the DAC asked of the data target so far. */
  public DataTargetObject.Counters dataTargetCounters() {
    return call(dataTarget::counters);
  }

  private List<GcHeap> readHeaps(SosDac.GcHeapData gc) {
    List<GcHeap> out = new ArrayList<>();
    long[] addresses = gc.serverMode() ? sos.gcHeapList(gc.heapCount()) : new long[] {0};
    for (int i = 0; i < addresses.length; i++) {
      SosDac.HeapDetails d = sos.heapDetails(addresses[i]);
      if (d == null) {
        throw new TargetException(
            Problem.DAC_FAILED, "the DAC cannot read GC heap " + i + " of " + target.describe());
      }
      SosDac.Generation[] gens = sos.generationTable(addresses[i]);
      if (gens == null) {
        gens = d.generations().toArray(new SosDac.Generation[0]);
      }
      List<GcHeap.GenerationStart> starts = new ArrayList<>();
      for (SosDac.Generation g : gens) {
        starts.add(
            new GcHeap.GenerationStart(
                g.startSegment(), g.allocationStart(), g.allocContextPtr(), g.allocContextLimit()));
      }
      boolean regions = gens.length >= 2 && gens[0].startSegment() != gens[1].startSegment();
      List<HeapSegment> segments = new ArrayList<>();
      Set<Long> seen = new HashSet<>();
      seen.add(0L);
      // The order ClrMD walks them in: LOH, generation 2 (with the frozen segments and, with
      // segments, the ephemeral one), regions of 1 and 0, then POH.
      int[] order = regions ? new int[] {3, 2, 1, 0, 4} : new int[] {3, 2, 4};
      for (int g : order) {
        if (g < gens.length) {
          readSegments(i, d, gens, g, regions, seen, segments);
        }
      }
      out.add(
          new GcHeap(
              i, addresses[i], d.allocAllocated(), List.copyOf(starts), List.copyOf(segments)));
    }
    return out;
  }

  private void readSegments(
      int heap,
      SosDac.HeapDetails d,
      SosDac.Generation[] gens,
      int generation,
      boolean regions,
      Set<Long> seen,
      List<HeapSegment> out) {
    long address = gens[generation].startSegment();
    int guard = 0;
    while (seen.add(address) && guard++ < 1_000_000) {
      SosDac.SegmentData s = sos.segmentData(address);
      if (s == null) {
        return;
      }
      SegmentKind kind;
      if ((s.flags() & 1) != 0) {
        kind = SegmentKind.FROZEN;
      } else if (generation == 3) {
        kind = SegmentKind.LARGE;
      } else if (generation == 4) {
        kind = SegmentKind.PINNED;
      } else if (regions) {
        kind =
            generation == 0
                ? SegmentKind.GEN0
                : generation == 1 ? SegmentKind.GEN1 : SegmentKind.GEN2;
      } else {
        kind = address == d.ephemeralHeapSegment() ? SegmentKind.EPHEMERAL : SegmentKind.GEN2;
      }
      long end = address == d.ephemeralHeapSegment() ? d.allocAllocated() : s.allocated();
      long gen1 = 0;
      long gen0 = 0;
      if (kind == SegmentKind.EPHEMERAL) {
        gen1 = gens[1].allocationStart();
        gen0 = gens[0].allocationStart();
      }
      out.add(
          new HeapSegment(
              heap,
              s.segmentAddress() != 0 ? s.segmentAddress() : address,
              kind,
              s.mem(),
              end,
              s.committed(),
              s.reserved(),
              gen1,
              gen0,
              s.flags()));
      address = s.next();
    }
  }

  /** The segment holding {@code address}, or null when it is not in the GC heap. */
  public HeapSegment segmentOf(long address) {
    for (GcHeap h : heaps) {
      for (HeapSegment s : h.segments()) {
        if (s.contains(address)) {
          return s;
        }
      }
    }
    return null;
  }

  // ---- the heap walk -------------------------------------------------------------------------

  /** Visits every object of every segment. */
  public WalkSummary walkHeap(HeapVisitor visitor) {
    return walkHeap(s -> true, visitor);
  }

  /** Visits every object of the segments {@code segments} accepts. */
  public WalkSummary walkHeap(Predicate<HeapSegment> segments, HeapVisitor visitor) {
    return call(
        () -> {
          List<HeapSegment> chosen = new ArrayList<>();
          for (GcHeap h : heaps) {
            for (HeapSegment s : h.segments()) {
              if (segments.test(s)) {
                chosen.add(s);
              }
            }
          }
          return new HeapWalker(this, target, allocationContexts()).walk(chosen, visitor);
        });
  }

  // On the owner thread: the objects of these segments, in this order.
  WalkSummary walkSegments(List<HeapSegment> segments, HeapVisitor visitor) {
    return new HeapWalker(this, target, allocationContexts()).walk(segments, visitor);
  }

  /** Per-type counts and sizes of the whole heap (dumpheap -stat). */
  public HeapStatistics statistics() {
    return call(
        () -> {
          LongMap<long[]> perType = new LongMap<>();
          List<ClrType> order = new ArrayList<>();
          WalkSummary summary =
              walkHeap(
                  o -> {
                    long mt = o.type().methodTable();
                    long[] c = perType.get(mt);
                    if (c == null) {
                      c = new long[2];
                      perType.put(mt, c);
                      order.add(o.type());
                    }
                    c[0]++;
                    c[1] += o.size();
                  });
          List<HeapStatistics.TypeStat> stats = new ArrayList<>(order.size());
          for (ClrType t : order) {
            long[] c = perType.get(t.methodTable());
            stats.add(new HeapStatistics.TypeStat(t, c[0], c[1]));
          }
          return new HeapStatistics(stats, summary);
        });
  }

  private List<long[]> allocationContexts() {
    List<long[]> contexts = new ArrayList<>();
    for (ClrThread t : threadReader.threads()) {
      contexts.add(new long[] {t.allocContextPtr(), t.allocContextLimit()});
    }
    long[] global = sos.globalAllocationContext();
    if (global != null) {
      contexts.add(global);
    }
    for (GcHeap h : heaps) {
      if (!h.generations().isEmpty()) {
        GcHeap.GenerationStart g0 = h.generations().get(0);
        contexts.add(new long[] {g0.allocContextPtr(), g0.allocContextLimit()});
      }
    }
    return contexts;
  }

  void checkStop() {
    owner.checkStop();
  }

  /**
   * Asks the long work in progress (a heap walk, a graph's reading, root paths) to end: it throws
   * {@link TargetException} with {@link TargetException.Problem#INTERRUPTED} at its next check, and
   * this process stays open for the next request. From any thread (a signal handler's).
   */
  public void cancel() {
    owner.cancel();
  }

  /** Forgets a {@link #cancel} that came after the work it was meant for. */
  public void clearCancel() {
    owner.clearCancel();
  }

  TargetMemory memory() {
    return target;
  }

  // ---- types ---------------------------------------------------------------------------------

  /**
   * The type whose method table is at {@code methodTable}.
   *
   * @throws TargetException {@link Problem#NOT_AN_OBJECT} when it is not a method table
   */
  public ClrType type(long methodTable) {
    ClrType t = call(() -> typeOrNull(methodTable));
    if (t == null) {
      throw new TargetException(
          Problem.NOT_AN_OBJECT, "0x" + Long.toHexString(methodTable) + " is not a method table");
    }
    return t;
  }

  /** The runtime's {@code System.String}, {@code System.Object} and free-space types. */
  public ClrType stringType() {
    return type(globals.stringMt());
  }

  /** {@code System.Object}. */
  public ClrType objectType() {
    return type(globals.objectMt());
  }

  /** {@code System.Exception}. */
  public ClrType exceptionType() {
    return type(globals.exceptionMt());
  }

  // On the owner thread.
  ClrType typeOrNull(long mt) {
    if (mt == 0 || (mt & 7) != 0) {
      return null;
    }
    ClrType t = types.get(mt);
    if (t != null || notTypes.contains(mt)) {
      return t;
    }
    SosDac.MethodTableData d = sos.methodTableData(mt);
    if (d == null || (d.baseSize() <= 0 && !d.isFree())) {
      notTypes.add(mt);
      return null;
    }
    boolean isString = mt == globals.stringMt();
    boolean isFree = d.isFree() || mt == globals.freeMt();
    String raw = isFree ? "Free" : sos.methodTableName(mt);
    String name =
        raw == null ? "<unknown type 0x" + Long.toHexString(mt) + ">" : DacTypeNames.readable(raw);
    int baseSize = d.baseSize();
    int componentSize = d.componentSize();
    if (isString) {
      // The DAC's base size of String lacks the terminating character the object has.
      baseSize += componentSize;
    }
    if (isFree) {
      // Free space is an array of bytes: 24 bytes of header and length, then its bytes.
      baseSize = (int) MIN_OBJECT_SIZE;
      componentSize = 1;
    }
    t =
        new ClrType(
            this,
            mt,
            name,
            baseSize,
            componentSize,
            d.containsPointers(),
            isFree,
            isString,
            d.module(),
            d.parentMt(),
            d.token());
    types.put(mt, t);
    return t;
  }

  GcDesc gcDescOf(ClrType type) {
    return call(
        () -> {
          if (!type.gcDescLoaded) {
            type.gcDescLoaded = true;
            type.gcDesc = readGcDesc(type.methodTable());
          }
          return type.gcDesc;
        });
  }

  private GcDesc readGcDesc(long mt) {
    byte[] countBytes = new byte[8];
    if (target.read(mt - 8, countBytes, 0, 8) != 8) {
      return null;
    }
    long count = ByteBuffer.wrap(countBytes).order(ByteOrder.LITTLE_ENDIAN).getLong();
    if (count == 0 || Math.abs(count) > GcDesc.MAX_SERIES) {
      return null;
    }
    int size = GcDesc.byteSize(count);
    byte[] bytes = new byte[size];
    if (target.read(mt - size, bytes, 0, size) != size) {
      return null;
    }
    return GcDesc.decode(count, bytes);
  }

  List<ClrField> instanceFields(ClrType type) {
    return call(
        () -> {
          loadFields(type);
          return type.instanceFields;
        });
  }

  List<ClrField> staticFields(ClrType type) {
    return call(
        () -> {
          loadFields(type);
          return type.staticFields;
        });
  }

  private void loadFields(ClrType type) {
    if (type.instanceFields != null) {
      return;
    }
    List<ClrField> instance = new ArrayList<>();
    List<ClrField> statics = new ArrayList<>();
    ClrType parent = type.parentMethodTable() == 0 ? null : typeOrNull(type.parentMethodTable());
    int inherited = 0;
    if (parent != null) {
      loadFields(parent);
      instance.addAll(parent.instanceFields);
      inherited = parent.instanceFields.size();
    }
    SosDac.MethodTableFieldData fd = sos.methodTableFieldData(type.methodTable());
    if (fd != null && fd.firstField() != 0) {
      long next = fd.firstField();
      int total = fd.instanceFields() + fd.staticFields();
      for (int i = inherited; i < total && next != 0; i++) {
        SosDac.FieldDescData f = sos.fieldDescData(next);
        if (f == null) {
          break;
        }
        ClrField.Kind kind =
            f.isThreadLocal()
                ? ClrField.Kind.THREAD_STATIC
                : f.isStatic() ? ClrField.Kind.STATIC : ClrField.Kind.INSTANCE;
        ElementType e = ElementType.of(f.type());
        ClrField field =
            new ClrField(
                fieldName(type.module(), f.token()),
                fieldTypeName(e, f),
                e,
                f.offset(),
                kind,
                f.fieldMt(),
                type.methodTable(),
                f.token(),
                next);
        (kind == ClrField.Kind.INSTANCE ? instance : statics).add(field);
        next = f.nextField();
      }
    }
    type.staticFields = List.copyOf(statics);
    type.instanceFields = List.copyOf(instance);
  }

  private String fieldName(long module, int token) {
    MetadataImport md = metadataOf(module);
    MetadataImport.FieldProps p = md == null ? null : md.fieldProps(token);
    return p != null && !p.name().isEmpty() ? p.name() : String.format("<token 0x%08x>", token);
  }

  private String fieldTypeName(ElementType e, SosDac.FieldDescData f) {
    if (e.typeName() != null) {
      return e.typeName();
    }
    if (f.fieldMt() != 0) {
      ClrType t = typeOrNull(f.fieldMt());
      if (t != null && !t.name().contains("__Canon")) {
        return t.name();
      }
    }
    if (f.fieldModule() != 0 && f.fieldTypeToken() != 0) {
      MetadataImport md = metadataOf(f.fieldModule());
      if (md != null) {
        int table = f.fieldTypeToken() >>> 24;
        String n =
            table == 0x02
                ? md.typeDefName(f.fieldTypeToken())
                : table == 0x01 ? md.typeRefName(f.fieldTypeToken()) : null;
        if (n != null && !n.isEmpty()) {
          return n;
        }
      }
    }
    return e == ElementType.VALUETYPE ? "<struct>" : "System.Object";
  }

  private MetadataImport metadataOf(long module) {
    if (module == 0 || noMetadata.contains(module)) {
      return null;
    }
    MetadataImport md = metadata.get(module);
    if (md == null) {
      ComObject m = sos.module(module);
      md = m == null ? null : MetadataImport.of(m);
      if (md == null) {
        noMetadata.add(module);
        return null;
      }
      metadata.put(module, md);
    }
    return md;
  }

  ElementType elementTypeOf(ClrType type) {
    return call(
        () -> {
          if (!type.elementLoaded && type.isArray()) {
            ClrObject[] sample = new ClrObject[1];
            // The DAC says an array's element type of an instance: find one.
            walkHeap(
                o -> {
                  if (sample[0] == null && o.type() == type) {
                    sample[0] = o.toObject();
                    owner.checkStop();
                  }
                });
            if (sample[0] != null) {
              loadElementType(type, sample[0].address());
            }
          }
          return type.elementType == null ? ElementType.UNKNOWN : type.elementType;
        });
  }

  // On the owner thread: the element type of an array type, from one of its instances.
  void loadElementType(ClrType type, long arrayAddress) {
    if (type.elementLoaded || !type.isArray()) {
      return;
    }
    SosDac.ObjectData d = sos.objectData(arrayAddress);
    if (d == null) {
      return;
    }
    type.elementLoaded = true;
    type.elementType = ElementType.of(d.elementType());
    type.elementMethodTable = d.elementTypeHandle();
  }

  // ---- objects -------------------------------------------------------------------------------

  /**
   * The object at {@code address}, checked to be one: in a GC segment, with a method table the DAC
   * knows, and accepted by the DAC as an object.
   *
   * @throws TargetException {@link Problem#NOT_AN_OBJECT} with why not
   */
  public ClrObject object(long address) {
    return call(() -> objectOnOwner(address));
  }

  private ClrObject objectOnOwner(long address) {
    String hex = "0x" + Long.toHexString(address);
    if (address == 0 || (address & 7) != 0) {
      throw new TargetException(
          Problem.NOT_AN_OBJECT, hex + " is not an object address (objects are 8-byte aligned)");
    }
    HeapSegment segment = segmentOf(address);
    if (segment == null) {
      throw new TargetException(
          Problem.NOT_AN_OBJECT, hex + " is not an object: it is not in the GC heap");
    }
    long mt = readLongOrThrow(address) & ~7L;
    ClrType type = typeOrNull(mt);
    if (type == null) {
      throw new TargetException(
          Problem.NOT_AN_OBJECT,
          hex + " is not an object: 0x" + Long.toHexString(mt) + " there is not a method table");
    }
    SosDac.ObjectData d = sos.objectData(address);
    if (d == null) {
      throw new TargetException(
          Problem.NOT_AN_OBJECT, hex + " is not an object: the DAC does not take it for one");
    }
    if (type.isArray()) {
      loadElementType(type, address);
    }
    long count =
        type.componentSize() == 0 ? 0 : Integer.toUnsignedLong(readIntOnOwner(address + 8));
    return new ClrObject(this, address, type, type.instanceSize(count));
  }

  /** The text of the string at {@code address}. */
  String readString(long address) {
    return call(
        () -> {
          int length = readIntOnOwner(address + 8);
          if (length < 0 || length > (1 << 28)) {
            throw new TargetException(
                Problem.NOT_AN_OBJECT, "0x" + Long.toHexString(address) + " is not a string");
          }
          byte[] chars = new byte[2 * length];
          if (target.read(address + 12, chars, 0, chars.length) != chars.length) {
            throw unreadable(address + 12);
          }
          return new String(chars, StandardCharsets.UTF_16LE);
        });
  }

  int readInt(long address) {
    return call(() -> readIntOnOwner(address));
  }

  private int readIntOnOwner(long address) {
    if (target.read(address, word, 0, 4) != 4) {
      throw unreadable(address);
    }
    return wordView.getInt(0);
  }

  /** The 8 bytes at {@code address} (a pointer), read from the target. */
  public long readPointer(long address) {
    return call(() -> readLongOrThrow(address));
  }

  private long readLongOrThrow(long address) {
    if (target.read(address, word, 0, 8) != 8) {
      throw unreadable(address);
    }
    return wordView.getLong(0);
  }

  /** Copies target memory; returns the bytes read (the readable prefix). */
  public int read(long address, byte[] dst, int offset, int length) {
    return call(() -> target.read(address, dst, offset, length));
  }

  private TargetException unreadable(long address) {
    return new TargetException(
        Problem.UNREADABLE_MEMORY,
        "0x" + Long.toHexString(address) + " is not readable in " + target.describe());
  }

  Value readValue(long at, ElementType e, long valueTypeMt) {
    return call(
        () -> {
          if (e.isReference()) {
            return new Value.Reference(readLongOrThrow(at));
          }
          if (e == ElementType.VALUETYPE) {
            ClrType vt = typeOrNull(valueTypeMt);
            if (vt == null) {
              return new Value.Reference(0);
            }
            return new Value.Embedded(new ClrValue(this, at, at, vt));
          }
          int size = Math.max(1, e.size());
          if (target.read(at, word, 0, size) != size) {
            throw unreadable(at);
          }
          long bits =
              switch (e) {
                case BOOLEAN, U1 -> word[0] & 0xff;
                case I1 -> word[0];
                case CHAR, U2 -> wordView.getShort(0) & 0xffff;
                case I2 -> wordView.getShort(0);
                case I4, R4 -> wordView.getInt(0);
                case U4 -> wordView.getInt(0) & 0xffffffffL;
                default -> wordView.getLong(0);
              };
          return new Value.Primitive(e, bits);
        });
  }

  void referencesOf(ClrObject object, ReferenceVisitor visitor) {
    call(
        () -> {
          ClrType type = object.type();
          if (!type.containsPointers()) {
            return null;
          }
          GcDesc desc = gcDescOf(type);
          if (desc == null) {
            return null;
          }
          long size = object.size();
          long end = object.address() + ((size + 7) & ~7L);
          MemoryWindow window =
              new MemoryWindow(target, (int) Math.min(1 << 20, Math.max(64, size)));
          desc.forEachSlot(
              size,
              offset -> {
                long target = window.word(object.address() + offset, end);
                if (target != 0) {
                  visitor.reference(target, offset);
                }
              });
          return null;
        });
  }

  // ---- threads and stacks --------------------------------------------------------------------

  /** The threads the runtime knows, in its thread list's order. */
  public List<ClrThread> threads() {
    return call(threadReader::threads);
  }

  /** The runtime's thread with OS id {@code osId}, or null. */
  public ClrThread thread(int osId) {
    return call(() -> threadReader.thread(osId));
  }

  /**
   * The managed stack of the thread with OS id {@code osThreadId}, innermost frame first (empty
   * when the runtime has no managed frames for it).
   */
  public List<StackFrame> stack(int osThreadId) {
    return call(() -> List.copyOf(threadReader.stack(osThreadId)));
  }

  /**
   * Where {@code frame} is in its method's IL, for its source line; null for a runtime frame, code
   * of no managed method, or an instruction of no IL (a prolog, an epilog).
   *
   * @param returnAddress whether the frame's IP is a return address (any frame a walk unwound to):
   *     its IL offset is then the call's, looked up at the address less one, as debuggers do
   */
  public FrameLocation frameLocation(StackFrame frame, boolean returnAddress) {
    if (frame.methodDesc() == 0 || frame.isRuntimeFrame() || frame.ip() == 0) {
      return null;
    }
    return call(
        () -> {
          SosDac.MethodDescData md = sos.methodDescData(frame.methodDesc());
          if (md == null || md.module() == 0) {
            return null;
          }
          long at = returnAddress ? frame.ip() - 1 : frame.ip();
          int il = xclr().ilOffset(at);
          if (il < 0) {
            return null;
          }
          dev.clrscope.symbols.ManagedModule module = managedModule(md.module());
          return module == null ? null : new FrameLocation(md.token(), il, module);
        });
  }

  /**
   * Where each frame of a stack is in its method's IL ({@link #frameLocation}), null where none.
   * Every frame a walk unwound to holds a return address; the innermost is exact when {@code
   * innermostExact} (a thread stopped in managed code), and so is a frame a fault stopped (after a
   * FaultingExceptionFrame).
   */
  public List<FrameLocation> frameLocations(List<StackFrame> frames, boolean innermostExact) {
    List<FrameLocation> out = new java.util.ArrayList<>(frames.size());
    for (int i = 0; i < frames.size(); i++) {
      StackFrame f = frames.get(i);
      boolean exact =
          (i == 0 && innermostExact)
              || (i > 0 && "FaultingExceptionFrame".equals(frames.get(i - 1).frameName()));
      out.add(frameLocation(f, !exact));
    }
    return out;
  }

  /** Modules as source lines take them, by module address: read once. */
  private final java.util.Map<Long, dev.clrscope.symbols.ManagedModule> managedModules =
      new java.util.HashMap<>();

  /**
   * A module's path and the PDB its image names (read from the image as the target mapped it, so a
   * core of another machine names its PDB too); null for a dynamic module. Owner thread only.
   */
  private dev.clrscope.symbols.ManagedModule managedModule(long module) {
    if (managedModules.containsKey(module)) {
      return managedModules.get(module);
    }
    dev.clrscope.symbols.ManagedModule m = null;
    SosDac.ModuleData d = sos.moduleData(module);
    if (d != null && !d.isReflection()) {
      String path = sos.peFileName(d.peAssembly());
      if (path == null || path.isEmpty()) {
        path = sos.peFileName(module);
      }
      dev.clrscope.symbols.PdbId id = null;
      String pdbPath = null;
      // ReadyToRun images are mapped as the loader lays them out (RVAs are offsets); IL-only ones
      // the runtime maps flat, as the file is: whichever names a portable PDB is the layout.
      for (boolean mapped : new boolean[] {true, false}) {
        if (d.ilBase() == 0 || id != null) {
          break;
        }
        try {
          dev.clrscope.symbols.PeDebugInfo pe =
              dev.clrscope.symbols.PeDebugInfo.read(
                  (offset, dst) ->
                      target.read(d.ilBase() + offset, dst, 0, dst.length) == dst.length,
                  MAPPED_IMAGE_LIMIT,
                  mapped);
          dev.clrscope.symbols.PeDebugInfo.CodeView cv = pe.portableCodeView();
          if (cv != null) {
            id = cv.id();
            pdbPath = cv.path();
          }
        } catch (java.io.IOException | dev.clrscope.symbols.PdbFormatException e) {
          // Not this layout, or the image's headers are not in the dump: the file on this
          // machine names its PDB.
        }
      }
      if (path != null && !path.isEmpty()) {
        m = new dev.clrscope.symbols.ManagedModule(path, id, pdbPath);
      }
    }
    managedModules.put(module, m);
    return m;
  }

  /** A mapped image's headers and debug directory lie within its first 4 GB. */
  private static final long MAPPED_IMAGE_LIMIT = 1L << 32;

  /** The name (with signature) of the method a MethodDesc describes, or null. */
  public String methodName(long methodDesc) {
    return call(() -> threadReader.methodName(methodDesc));
  }

  /**
   * The method a code address enters: the method whose code holds it, or the one a precode stub
   * (what a delegate or a vtable points at before or instead of the code) stands for. 0 when none.
   */
  public long methodDescOfEntry(long entry) {
    return call(
        () -> {
          long md = sos.methodDescFromIp(entry);
          if (md != 0 || entry == 0) {
            return md;
          }
          byte[] code = new byte[8];
          if (target.read(entry, code, 0, code.length) != code.length) {
            return 0L;
          }
          ByteBuffer c = ByteBuffer.wrap(code).order(ByteOrder.LITTLE_ENDIAN);
          long candidate = 0;
          if ((code[0] & 0xff) == 0xff && (code[1] & 0xff) == 0x25) {
            // FixupPrecode: jmp [rip+disp] to its data {Target, MethodDesc, ...}.
            candidate = readLongOrZero(entry + 6 + c.getInt(2) + 8);
          } else if ((code[0] & 0xff) == 0x4c
              && (code[1] & 0xff) == 0x8b
              && (code[2] & 0xff) == 0x15) {
            // StubPrecode: mov r10, [rip+disp] loads its data {MethodDesc, Target, ...}.
            candidate = readLongOrZero(entry + 7 + c.getInt(3));
          }
          return candidate != 0 && sos.methodDescData(candidate) != null ? candidate : 0L;
        });
  }

  /** The name of the method a delegate calls (the first, for a multicast delegate), or null. */
  public String delegateMethod(ClrObject delegate) {
    ClrObject d = delegate;
    ClrField list = d.type().field("_invocationList");
    if (list != null && d.value(list) instanceof Value.Reference r && !r.isNull()) {
      ClrObject invocations = object(r.address());
      if (invocations.type().isArray() && invocations.length() > 0) {
        d = object(((Value.Reference) invocations.element(0)).address());
      }
    }
    long aux = d.longField("_methodPtrAux");
    long md = aux != 0 ? methodDescOfEntry(aux) : 0;
    if (md == 0) {
      md = methodDescOfEntry(d.longField("_methodPtr"));
    }
    return md == 0 ? null : methodName(md);
  }

  /** Where the native code of the method holding {@code ip} starts, or 0. */
  public long methodStart(long ip) {
    return call(
        () -> {
          SosDac.CodeHeaderData c = sos.codeHeaderData(ip);
          return c == null ? 0 : c.methodStart();
        });
  }

  // ---- exceptions ----------------------------------------------------------------------------

  /**
   * The exception object at {@code address}: type, message, HResult, the stack trace it recorded,
   * its inner exceptions.
   *
   * @throws TargetException {@link Problem#NOT_AN_OBJECT} when it is not an exception object
   */
  public ExceptionInfo exception(long address) {
    return call(() -> threadReader.exception(address, 0));
  }

  /** The exception {@code thread} is throwing or last threw, or null. */
  public ExceptionInfo currentException(ClrThread thread) {
    return thread.currentException() == 0 ? null : exception(thread.currentException());
  }

  // ---- modules, types by name, statics -------------------------------------------------------

  /** The loaded modules. */
  public List<ClrModule> modules() {
    return call(rootReader::modules);
  }

  /** Every type defined in a loaded module whose method table is loaded (not generic instances). */
  public List<ClrType> loadedTypes() {
    return call(rootReader::loadedTypes);
  }

  /**
   * The type named {@code name} (dotnet-dump's form): a loaded type definition, or any type the
   * model has met (generic instances included). Null when there is none.
   */
  public ClrType typeByName(String name) {
    return call(
        () -> {
          for (ClrType t : rootReader.loadedTypes()) {
            if (t.name().equals(name)) {
              return t;
            }
          }
          ClrType[] found = new ClrType[1];
          types.forEach(
              (mt, t) -> {
                if (found[0] == null && t.name().equals(name)) {
                  found[0] = t;
                }
              });
          return found[0];
        });
  }

  /**
   * Where a static field's value is (for references and structs: the slot that holds the
   * reference), or 0 when the type's statics are not allocated or its class constructor has not run
   * yet.
   */
  public long staticFieldAddress(ClrType type, ClrField field) {
    return call(() -> staticSlot(type, field));
  }

  /** A static field's value, or null when it has none yet (see {@link #staticFieldAddress}). */
  public Value staticValue(ClrType type, ClrField field) {
    return call(
        () -> {
          long slot = staticSlot(type, field);
          return slot == 0 ? null : slotValue(slot, field);
        });
  }

  /** A thread-static field's value on {@code thread}, or null when it has none there. */
  public Value threadStaticValue(ClrType type, ClrField field, ClrThread thread) {
    return call(
        () -> {
          long slot = threadStaticSlot(type, field, thread);
          return slot == 0 ? null : slotValue(slot, field);
        });
  }

  private Value slotValue(long slot, ClrField field) {
    if (field.elementType() == ElementType.VALUETYPE) {
      // A struct static is boxed: the slot holds the box.
      long box = readLongOrThrow(slot);
      ClrType t = box == 0 ? null : typeOrNull(readLongOrThrow(box) & ~7L);
      return t == null
          ? new Value.Reference(0)
          : new Value.Embedded(new ClrValue(this, box + 8, box + 8, t));
    }
    return readValue(slot, field.elementType(), field.fieldTypeMethodTable());
  }

  // On the owner thread.
  long staticSlot(ClrType type, ClrField field) {
    if (field.kind() != ClrField.Kind.STATIC) {
      throw new IllegalArgumentException(field.name() + " is not a static field");
    }
    long[] bases = staticBases.get(type.methodTable());
    if (bases == null) {
      bases = new long[2];
      if (sos.hasStaticBases() && sos.isInitialized(type.methodTable())) {
        long[] b = sos.staticBases(type.methodTable());
        if (b != null) {
          bases = b;
        }
      }
      staticBases.put(type.methodTable(), bases);
    }
    long base = field.elementType().isPrimitive() ? bases[0] : bases[1];
    return base == 0 ? 0 : base + field.offset();
  }

  // On the owner thread.
  long threadStaticSlot(ClrType type, ClrField field, ClrThread thread) {
    if (field.kind() != ClrField.Kind.THREAD_STATIC) {
      throw new IllegalArgumentException(field.name() + " is not a thread-static field");
    }
    if (!sos.hasStaticBases() || !sos.isInitialized(type.methodTable())) {
      return 0;
    }
    long[] b = sos.threadStaticBases(type.methodTable(), thread.address());
    if (b == null) {
      return 0;
    }
    long base = field.elementType().isPrimitive() ? b[0] : b[1];
    return base == 0 ? 0 : base + field.offset();
  }

  // ---- roots ---------------------------------------------------------------------------------

  /**
   * Every root: GC handles of every kind (weak ones included: see {@link RootKind#isStrong}), each
   * thread's stack references, objects ready for finalization, static fields and thread-static
   * fields holding objects. Statics live in arrays a pinned handle holds, so an object a static
   * holds is reached both from that handle and, named, from its static root.
   */
  public void roots(RootVisitor visitor) {
    run(
        () -> {
          rootReader.handles(visitor);
          rootReader.stacks(visitor);
          rootReader.finalizerRoots(visitor);
          rootReader.statics(visitor);
          rootReader.threadStatics(visitor);
        });
  }

  /** The GC handles. */
  public void handles(RootVisitor visitor) {
    run(() -> rootReader.handles(visitor));
  }

  /** The references on one thread's stack. */
  public void stackRoots(int osThreadId, RootVisitor visitor) {
    run(() -> rootReader.stack(osThreadId, visitor));
  }

  /** Static fields that hold objects. */
  public void staticRoots(RootVisitor visitor) {
    run(() -> rootReader.statics(visitor));
  }

  /** Thread-static fields that hold objects, per thread. */
  public void threadStaticRoots(RootVisitor visitor) {
    run(() -> rootReader.threadStatics(visitor));
  }

  /** The finalization queues of every heap (registered objects and those ready to finalize). */
  public List<FinalizerEntry> finalizerQueue() {
    return call(() -> List.copyOf(rootReader.finalizerQueue()));
  }

  /** The sync blocks in use (SOS's {@code syncblk}): objects' monitors with owner and waiters. */
  public List<SyncBlock> syncBlocks() {
    return call(
        () -> {
          List<SyncBlock> out = new ArrayList<>();
          SosDac.SyncBlockData first = sos.syncBlockData(1);
          if (first == null) {
            return out;
          }
          int count = Math.min(first.syncBlockCount(), 10_000_000);
          for (int i = 1; i <= count; i++) {
            SosDac.SyncBlockData d = i == 1 ? first : sos.syncBlockData(i);
            if (d == null) {
              break;
            }
            if (d.free() || d.object() == 0) {
              continue;
            }
            int osId = 0;
            if (d.holdingThread() != 0) {
              SosDac.ThreadData t = sos.threadData(d.holdingThread());
              osId = t == null ? 0 : t.osId();
            }
            out.add(
                new SyncBlock(
                    i,
                    d.syncBlockPointer(),
                    d.object(),
                    d.monitorHeld(),
                    d.recursion(),
                    d.holdingThread(),
                    osId,
                    SyncBlock.waiters(d.monitorHeld(), d.additionalThreadCount())));
          }
          return out;
        });
  }

  /**
   * The exact object graph: every object, its references and every root, in heapwalk's snapshot
   * (retained sizes, dominators, paths from roots, a .gcdump). Objects no root reaches are left
   * unreachable, apart from the live ones. About 20 bytes per object and 4 per reference.
   */
  public dev.clrscope.heapwalk.HeapSnapshot heapSnapshot() {
    return call(() -> ExactHeap.read(this, rootReader));
  }

  /**
   * {@link #heapSnapshot()}, with {@code also} visiting every object of the graph's walk (free
   * space included), as {@link #walkHeap} would: one walk where two were needed.
   */
  public dev.clrscope.heapwalk.HeapSnapshot heapSnapshot(HeapVisitor also) {
    return call(() -> ExactHeap.read(this, rootReader, also));
  }

  // ---- paths from roots, where objects are -------------------------------------------------

  /**
   * The paths by which roots keep the object at {@code address} alive (SOS's {@code gcroot}): for
   * each root that reaches it, a shortest path from that root, up to {@code maxPaths}. Stack roots
   * come first, then statics and thread statics, handles, and the finalization queue. Weak handles
   * keep nothing alive and are left out unless {@code includeWeak}.
   */
  public List<RootPath> rootPaths(long address, int maxPaths, boolean includeWeak) {
    return call(
        () -> {
          objectOnOwner(address);
          List<Root> all = new ArrayList<>();
          List<Root> dependent = new ArrayList<>();
          rootReader.stacks(all::add);
          rootReader.statics(all::add);
          rootReader.threadStatics(all::add);
          rootReader.handles(
              r -> {
                if (r.kind() == RootKind.DEPENDENT_HANDLE) {
                  dependent.add(r);
                } else if (includeWeak || r.kind().isStrong()) {
                  all.add(r);
                }
              });
          rootReader.finalizerRoots(all::add);
          List<HeapSegment> segments = new ArrayList<>();
          heaps.forEach(h -> segments.addAll(h.segments()));
          ObjectGraph graph = ObjectGraph.build(this, segments);
          GcRootFinder finder = new GcRootFinder(graph, graph.indexOf(address), dependent);
          List<RootPath> out = new ArrayList<>();
          for (Root r : all) {
            if (out.size() >= maxPaths) {
              break;
            }
            checkStop();
            int start = r.interior() ? graph.indexHolding(r.object()) : graph.indexOf(r.object());
            List<Long> path = start < 0 ? null : finder.pathFrom(start);
            if (path != null) {
              out.add(new RootPath(r, List.copyOf(path)));
            }
          }
          return out;
        });
  }

  /**
   * The object that holds {@code address} (its start or anywhere inside it), found by walking its
   * segment.
   *
   * @throws TargetException {@link Problem#NOT_AN_OBJECT} when no object holds it
   */
  public ClrObject objectContaining(long address) {
    return call(
        () -> {
          ClrObject o = containingOrNull(address);
          if (o == null) {
            throw new TargetException(
                Problem.NOT_AN_OBJECT,
                "0x" + Long.toHexString(address) + " is not inside an object of the GC heap");
          }
          return o;
        });
  }

  private ClrObject containingOrNull(long address) {
    HeapSegment segment = segmentOf(address);
    if (segment == null) {
      return null;
    }
    long[] found = new long[1];
    new HeapWalker(this, target, allocationContexts())
        .walk(
            List.of(segment),
            o -> {
              if (found[0] == 0
                  && Long.compareUnsigned(address, o.address()) >= 0
                  && Long.compareUnsigned(address, o.address() + o.alignedSize()) < 0) {
                found[0] = o.address();
              }
            });
    return found[0] == 0 ? null : objectOnOwner(found[0]);
  }

  /** What an object keeps alive by itself and through its references: SOS's {@code objsize}. */
  public record ObjectSize(long objects, long bytes) {}

  /**
   * The object at {@code address} and every object it reaches through references, counted once each
   * (SOS's {@code objsize}: sizes as SOS counts them).
   */
  public ObjectSize objectSize(long address) {
    return call(
        () -> {
          objectOnOwner(address);
          LongSet seen = new LongSet();
          java.util.ArrayDeque<Long> todo = new java.util.ArrayDeque<>();
          seen.add(address);
          todo.add(address);
          long objects = 0;
          long bytes = 0;
          while (!todo.isEmpty()) {
            checkStop();
            long at = todo.poll();
            ClrType type = typeOrNull(readLongOrZero(at) & ~7L);
            if (type == null) {
              continue;
            }
            long count =
                type.componentSize() == 0
                    ? 0
                    : Integer.toUnsignedLong(readIntOnOwnerOrZero(at + 8));
            objects++;
            bytes += type.instanceSize(count);
            forEachReference(
                at,
                (ref, offset) -> {
                  if (seen.add(ref)) {
                    todo.add(ref);
                  }
                });
          }
          return new ObjectSize(objects, bytes);
        });
  }

  /** The generation of the object at {@code address} (SOS's {@code gcwhere}), or null. */
  public Generation generationOf(long address) {
    HeapSegment s = segmentOf(address);
    return s == null ? null : s.generationOf(address);
  }

  // On the owner thread: the references of the object at address, from its type's GC descriptor
  // (nothing when it is no object).
  void forEachReference(long address, ReferenceVisitor visitor) {
    long mt = readLongOrZero(address) & ~7L;
    ClrType type = mt == 0 ? null : typeOrNull(mt);
    if (type == null || !type.containsPointers()) {
      return;
    }
    GcDesc desc = type.gcDescLoaded ? type.gcDesc : gcDescOf(type);
    if (desc == null) {
      return;
    }
    long count = 0;
    if (type.componentSize() != 0) {
      count = Integer.toUnsignedLong(readIntOnOwnerOrZero(address + 8));
    }
    long size = type.instanceSize(count);
    long end = address + ((size + 7) & ~7L);
    desc.forEachSlot(
        size,
        offset -> {
          long ref = refWindow.word(address + offset, end);
          if (ref != 0) {
            visitor.reference(ref, offset);
          }
        });
  }

  private int readIntOnOwnerOrZero(long address) {
    return target.read(address, word, 0, 4) == 4 ? wordView.getInt(0) : 0;
  }

  long readLongOrZero(long address) {
    if (target.read(address, word, 0, 8) != 8) {
      return 0;
    }
    return wordView.getLong(0);
  }

  String readStringOrNull(long address) {
    try {
      return readString(address);
    } catch (TargetException e) {
      return null;
    }
  }

  // ---- plumbing ------------------------------------------------------------------------------

  SosDac sos() {
    return sos;
  }

  XclrData xclr() {
    return xclr;
  }

  Target target() {
    return target;
  }

  SosDac.UsefulGlobals globals() {
    return globals;
  }

  void run(Runnable task) {
    call(
        () -> {
          task.run();
          return null;
        });
  }

  <T> T call(java.util.concurrent.Callable<T> task) {
    if (closed) {
      throw new IllegalStateException("this process view is closed");
    }
    return owner.call(task);
  }

  /** Releases the target (a live process runs on) and the owner thread. The DAC stays loaded. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    try {
      owner.run(
          () -> {
            target.close();
            if (target instanceof LiveProcess live) {
              pausedAtClose = live.pausedNanos();
            }
          });
    } finally {
      closed = true;
      owner.close();
      if (shutdownHook != null) {
        try {
          Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
          // The JVM is already shutting down: the hook has run or runs now, harmlessly.
        }
      }
    }
  }

  /** Whether {@code path} looks like a core file this class can open (ELF core magic). */
  public static boolean looksLikeCore(Path path) {
    if (!Files.isRegularFile(path)) {
      return false;
    }
    try (var in = Files.newInputStream(path)) {
      byte[] h = in.readNBytes(18);
      return h.length == 18
          && h[0] == 0x7f
          && h[1] == 'E'
          && h[2] == 'L'
          && h[3] == 'F'
          && h[16] == 4
          && h[17] == 0;
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
