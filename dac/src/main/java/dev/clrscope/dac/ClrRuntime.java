package dev.clrscope.dac;

import dev.clrscope.dac.TargetException.Problem;
import dev.clrscope.dac.interop.SosDac;
import dev.clrscope.symbols.ManagedModule;
import dev.clrscope.symbols.PdbFormatException;
import dev.clrscope.symbols.PdbId;
import dev.clrscope.symbols.PeDebugInfo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A session's runtime, as ClrMD's {@code ClrRuntime} gives it: what the runtime and its DAC are,
 * its threads and their managed stacks, method names and source locations, exceptions, modules and
 * the types they define, static fields, sync blocks and the finalization queue. It reads through
 * the session's DAC and the {@link ClrReader}, and never through the heap view, which stands on it.
 * Get it from {@link DacSession#runtime}; every method may be called from any thread.
 */
public final class ClrRuntime {
  /** A mapped image's headers and debug directory lie within its first 4 GB. */
  private static final long MAPPED_IMAGE_LIMIT = 1L << 32;

  private final DacSession session;
  private final ClrReader reader;
  private final SosDac sos;
  private final ThreadReader threads;
  private final ModuleReader modules;
  private final LongMap<long[]> staticBases = new LongMap<>();

  /** Modules' DomainLocalModules before .NET 9, by module address (null: none). */
  private final Map<Long, SosDac.LocalModuleData> localModules = new HashMap<>();

  /** Modules as source lines take them, by module address: read once. */
  private final Map<Long, ManagedModule> managedModules = new HashMap<>();

  ClrRuntime(DacSession session, ClrReader reader) {
    this.session = session;
    this.reader = reader;
    this.sos = session.sos();
    this.threads = new ThreadReader(session, reader);
    this.modules = new ModuleReader(session, reader);
  }

  /** The runtime, its GC and the DAC in use. */
  public RuntimeInfo info() {
    return session.info();
  }

  // ---- threads and stacks ------------------------------------------------------------------

  /** The threads the runtime knows, in its thread list's order. */
  public List<ClrThread> threads() {
    return session.call(threads::threads);
  }

  /** The runtime's thread with OS id {@code osId}, or null. */
  public ClrThread thread(int osId) {
    return session.call(() -> threads.thread(osId));
  }

  /**
   * The managed stack of the thread with OS id {@code osThreadId}, innermost frame first (empty
   * when the runtime has no managed frames for it).
   */
  public List<StackFrame> stack(int osThreadId) {
    return session.call(() -> List.copyOf(threads.stack(osThreadId)));
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
    return session.call(
        () -> {
          SosDac.MethodDescData md = sos.methodDescData(frame.methodDesc());
          if (md == null || md.module() == 0) {
            return null;
          }
          long at = returnAddress ? frame.ip() - 1 : frame.ip();
          int il = session.xclr().ilOffset(at);
          if (il < 0) {
            return null;
          }
          ManagedModule module = managedModule(md.module());
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
    List<FrameLocation> out = new ArrayList<>(frames.size());
    for (int i = 0; i < frames.size(); i++) {
      StackFrame f = frames.get(i);
      boolean exact =
          (i == 0 && innermostExact)
              || (i > 0 && "FaultingExceptionFrame".equals(frames.get(i - 1).frameName()));
      out.add(frameLocation(f, !exact));
    }
    return out;
  }

  /**
   * A module's path and the PDB its image names (read from the image as the target mapped it, so a
   * core of another machine names its PDB too); null for a dynamic module. On the owner thread.
   */
  private ManagedModule managedModule(long module) {
    if (managedModules.containsKey(module)) {
      return managedModules.get(module);
    }
    ManagedModule m = null;
    SosDac.ModuleData d = sos.moduleData(module);
    if (d != null && !d.isReflection()) {
      String path = sos.peFileName(d.peAssembly());
      if (path == null || path.isEmpty()) {
        path = sos.peFileName(module);
      }
      PdbId id = null;
      String pdbPath = null;
      // ReadyToRun images are mapped as the loader lays them out (RVAs are offsets); IL-only ones
      // the runtime maps flat, as the file is: whichever names a portable PDB is the layout.
      for (boolean mapped : new boolean[] {true, false}) {
        if (d.ilBase() == 0 || id != null) {
          break;
        }
        try {
          PeDebugInfo pe =
              PeDebugInfo.read(
                  (offset, dst) ->
                      reader.memory().read(d.ilBase() + offset, dst, 0, dst.length) == dst.length,
                  MAPPED_IMAGE_LIMIT,
                  mapped);
          PeDebugInfo.CodeView cv = pe.portableCodeView();
          if (cv != null) {
            id = cv.id();
            pdbPath = cv.path();
          }
        } catch (IOException | PdbFormatException e) {
          // Not this layout, or the image's headers are not in the dump: the file on this
          // machine names its PDB.
        }
      }
      if (path != null && !path.isEmpty()) {
        m = new ManagedModule(path, id, pdbPath);
      }
    }
    managedModules.put(module, m);
    return m;
  }

  /** The name (with signature) of the method a MethodDesc describes, or null. */
  public String methodName(long methodDesc) {
    return session.call(() -> threads.methodName(methodDesc));
  }

  /**
   * The method a code address enters: the method whose code holds it, or the one a precode stub
   * (what a delegate or a vtable points at before or instead of the code) stands for. 0 when none.
   */
  public long methodDescOfEntry(long entry) {
    return session.call(
        () -> {
          long md = sos.methodDescFromIp(entry);
          if (md != 0 || entry == 0) {
            return md;
          }
          byte[] code = new byte[8];
          if (reader.memory().read(entry, code, 0, code.length) != code.length) {
            return 0L;
          }
          ByteBuffer c = ByteBuffer.wrap(code).order(ByteOrder.LITTLE_ENDIAN);
          long candidate = 0;
          if ((code[0] & 0xff) == 0xff && (code[1] & 0xff) == 0x25) {
            // FixupPrecode: jmp [rip+disp] to its data {Target, MethodDesc, ...}.
            candidate = reader.readLongOrZero(entry + 6 + c.getInt(2) + 8);
          } else if ((code[0] & 0xff) == 0x4c
              && (code[1] & 0xff) == 0x8b
              && (code[2] & 0xff) == 0x15) {
            // StubPrecode: mov r10, [rip+disp] loads its data {MethodDesc, Target, ...}.
            candidate = reader.readLongOrZero(entry + 7 + c.getInt(3));
          }
          return candidate != 0 && sos.methodDescData(candidate) != null ? candidate : 0L;
        });
  }

  /** The name of the method a delegate calls (the first, for a multicast delegate), or null. */
  public String delegateMethod(ClrObject delegate) {
    ClrObject d = delegate;
    ClrField list = d.type().field("_invocationList");
    if (list != null && d.value(list) instanceof Value.Reference r && !r.isNull()) {
      ClrObject invocations = reader.object(r.address());
      if (invocations.type().isArray() && invocations.length() > 0) {
        d = reader.object(((Value.Reference) invocations.element(0)).address());
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
    return session.call(
        () -> {
          SosDac.CodeHeaderData c = sos.codeHeaderData(ip);
          return c == null ? 0 : c.methodStart();
        });
  }

  // ---- exceptions --------------------------------------------------------------------------

  /**
   * The exception object at {@code address}: type, message, HResult, the stack trace it recorded,
   * its inner exceptions.
   *
   * @throws TargetException {@link Problem#NOT_AN_OBJECT} when it is not an exception object
   */
  public ExceptionInfo exception(long address) {
    return session.call(() -> threads.exception(address, 0));
  }

  /** The exception {@code thread} is throwing or last threw, or null. */
  public ExceptionInfo currentException(ClrThread thread) {
    return thread.currentException() == 0 ? null : exception(thread.currentException());
  }

  // ---- modules and types -------------------------------------------------------------------

  /** The loaded modules. */
  public List<ClrModule> modules() {
    return session.call(modules::modules);
  }

  /** Every type defined in a loaded module whose method table is loaded (not generic instances). */
  public List<ClrType> loadedTypes() {
    return session.call(modules::loadedTypes);
  }

  /**
   * The type whose method table is at {@code methodTable}.
   *
   * @throws TargetException {@link Problem#NOT_AN_OBJECT} when it is not a method table
   */
  public ClrType type(long methodTable) {
    return reader.type(methodTable);
  }

  /** {@code System.String}. */
  public ClrType stringType() {
    return reader.type(reader.globals().stringMt());
  }

  /** {@code System.Object}. */
  public ClrType objectType() {
    return reader.type(reader.globals().objectMt());
  }

  /** {@code System.Exception}. */
  public ClrType exceptionType() {
    return reader.type(reader.globals().exceptionMt());
  }

  /**
   * The type named {@code name} (dotnet-dump's form): a loaded type definition, or any type the
   * model has met (generic instances included). Null when there is none.
   */
  public ClrType typeByName(String name) {
    return session.call(
        () -> {
          for (ClrType t : modules.loadedTypes()) {
            if (t.name().equals(name)) {
              return t;
            }
          }
          ClrType[] found = new ClrType[1];
          reader.forEachTypeMet(
              t -> {
                if (found[0] == null && t.name().equals(name)) {
                  found[0] = t;
                }
              });
          return found[0];
        });
  }

  // ---- statics -----------------------------------------------------------------------------

  /**
   * Where a static field's value is (for references and structs: the slot that holds the
   * reference), or 0 when the type's statics are not allocated or its class constructor has not run
   * yet.
   */
  public long staticFieldAddress(ClrType type, ClrField field) {
    return session.call(() -> staticSlot(type, field));
  }

  /** A static field's value, or null when it has none yet (see {@link #staticFieldAddress}). */
  public Value staticValue(ClrType type, ClrField field) {
    return session.call(
        () -> {
          long slot = staticSlot(type, field);
          return slot == 0 ? null : reader.slotValue(slot, field);
        });
  }

  /** A thread-static field's value on {@code thread}, or null when it has none there. */
  public Value threadStaticValue(ClrType type, ClrField field, ClrThread thread) {
    return session.call(
        () -> {
          long slot = threadStaticSlot(type, field, thread);
          return slot == 0 ? null : reader.slotValue(slot, field);
        });
  }

  /** The loaded types' statics that can hold an object. On the owner thread. */
  List<ModuleReader.TypeStatics> statics() {
    return modules.statics();
  }

  /** Where a static's value is, or 0. On the owner thread. */
  long staticSlot(ClrType type, ClrField field) {
    if (field.kind() != ClrField.Kind.STATIC) {
      throw new IllegalArgumentException(field.name() + " is not a static field");
    }
    long[] bases = staticBases(type.methodTable(), type.module(), type.token());
    return slot(bases, field.elementType(), field.offset());
  }

  /** Where a static of a type the roots read is, or 0. On the owner thread. */
  long staticSlot(ModuleReader.TypeStatics type, ModuleReader.StaticField field) {
    long[] bases = staticBases(type.methodTable(), type.module(), type.token());
    return slot(bases, field.elementType(), field.offset());
  }

  private static long slot(long[] bases, ElementType e, int offset) {
    long base = e.isPrimitive() ? bases[0] : bases[1];
    return base == 0 ? 0 : base + offset;
  }

  private long[] staticBases(long mt, long module, int token) {
    long[] bases = staticBases.get(mt);
    if (bases == null) {
      bases = readStaticBases(mt, module, token);
      staticBases.put(mt, bases);
    }
    return bases;
  }

  /**
   * {@code [nonGcBase, gcBase]} of a type's statics, zeros while its class constructor has not run.
   * .NET 9 and later say them per type (ISOSDacInterface14). Before, a module's statics are in its
   * DomainLocalModule: one block of non-GC statics and one of slots for the GC ones (a pinned
   * object array's elements), each field's offset counting from the block's start, and a byte of
   * flags per type-def (by its row less one) whose lowest bit says its class constructor has run,
   * as SOS's {@code GetStaticFieldPTR} and ClrMD read them. A generic instantiation's statics (a
   * "dynamic" type's) are apart, in the module's dynamic class table: not read.
   */
  private long[] readStaticBases(long mt, long module, int token) {
    if (sos.hasStaticBases()) {
      long[] b = sos.isInitialized(mt) ? sos.staticBases(mt) : null;
      return b == null ? new long[2] : b;
    }
    SosDac.LocalModuleData dlm = domainLocalModule(module);
    if (dlm == null || isDynamic(mt) || !classFlag(dlm, token, CLASS_INITIALIZED)) {
      return new long[2];
    }
    return new long[] {dlm.nonGcStaticsStart(), dlm.gcStaticsStart()};
  }

  /** Where a thread-static's value is on {@code thread}, or 0. On the owner thread. */
  long threadStaticSlot(ClrType type, ClrField field, ClrThread thread) {
    if (field.kind() != ClrField.Kind.THREAD_STATIC) {
      throw new IllegalArgumentException(field.name() + " is not a thread-static field");
    }
    return threadStaticSlot(
        type.methodTable(),
        type.module(),
        type.token(),
        field.elementType(),
        field.offset(),
        thread);
  }

  /**
   * Where a thread-static (stored as {@code e}, at {@code offset}) of the type-def {@code token} of
   * {@code module} at method table {@code mt} is on {@code thread}, or 0. On the owner thread.
   */
  long threadStaticSlot(
      long mt, long module, int token, ElementType e, int offset, ClrThread thread) {
    long[] b;
    if (sos.hasStaticBases()) {
      b = sos.isInitialized(mt) ? sos.threadStaticBases(mt, thread.address()) : null;
    } else {
      // Before .NET 9: the module's ThreadLocalModule on that thread, whose flags say whether
      // the type's thread statics were allocated there; the class constructor's flag is the
      // DomainLocalModule's, as SOS reads them.
      SosDac.LocalModuleData dlm = domainLocalModule(module);
      SosDac.ModuleData data = sos.moduleData(module);
      SosDac.LocalModuleData tlm =
          dlm == null || data == null || isDynamic(mt)
              ? null
              : sos.threadLocalModule(thread.address(), data.moduleIndex());
      b =
          tlm != null
                  && classFlag(tlm, token, THREAD_STATICS_ALLOCATED)
                  && classFlag(dlm, token, CLASS_INITIALIZED)
              ? new long[] {tlm.nonGcStaticsStart(), tlm.gcStaticsStart()}
              : null;
    }
    return b == null ? 0 : slot(b, e, offset);
  }

  /** The class-data flag of a type whose class constructor has run. */
  private static final int CLASS_INITIALIZED = 1;

  /** The thread-local class-data flag of a type whose thread statics are allocated. */
  private static final int THREAD_STATICS_ALLOCATED = 4;

  /** A module's DomainLocalModule (before .NET 9), read once; null when it has none. */
  private SosDac.LocalModuleData domainLocalModule(long module) {
    if (!localModules.containsKey(module)) {
      localModules.put(module, module == 0 ? null : sos.domainLocalModule(module));
    }
    return localModules.get(module);
  }

  /** Whether a type's statics are its own (a generic instantiation's), not its module's. */
  private boolean isDynamic(long methodTable) {
    SosDac.MethodTableData d = sos.methodTableData(methodTable);
    return d == null || d.isDynamic();
  }

  /** Whether a type's byte of class data (indexed by its type-def row) has {@code flag}. */
  private boolean classFlag(SosDac.LocalModuleData m, int typeDefToken, int flag) {
    int row = typeDefToken & 0x00ff_ffff;
    if (m.classData() == 0 || row == 0) {
      return false;
    }
    byte[] flags = new byte[1];
    return reader.memory().read(m.classData() + row - 1, flags, 0, 1) == 1
        && (flags[0] & flag) != 0;
  }

  // ---- sync blocks, the finalization queue -------------------------------------------------

  /** The sync blocks in use (SOS's {@code syncblk}): objects' monitors with owner and waiters. */
  public List<SyncBlock> syncBlocks() {
    return session.call(
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

  /** The finalization queues of every heap (registered objects and those ready to finalize). */
  public List<FinalizerEntry> finalizerQueue() {
    return session.call(() -> List.copyOf(finalizerQueueOnOwner()));
  }

  /** {@link #finalizerQueue} on the owner thread. */
  List<FinalizerEntry> finalizerQueueOnOwner() {
    List<FinalizerEntry> out = new ArrayList<>();
    for (GcHeap h : session.gcHeaps()) {
      long[] fill = sos.finalizationFillPointers(h.address());
      if (fill == null) {
        SosDac.HeapDetails d = sos.heapDetails(h.address());
        fill =
            d == null
                ? null
                : d.finalizationFillPointers().subList(0, 6).stream()
                    .mapToLong(Long::longValue)
                    .toArray();
      }
      if (fill == null || fill.length < 4) {
        continue;
      }
      int readyFrom = fill.length - 3;
      int end = fill.length - 1;
      for (int seg = 0; seg < end; seg++) {
        boolean ready = seg >= readyFrom;
        long from = fill[seg];
        long to = fill[seg + 1];
        if (Long.compareUnsigned(to, from) <= 0 || to - from > (64L << 20)) {
          continue;
        }
        for (long slot = from; Long.compareUnsigned(slot, to) < 0; slot += 8) {
          long object = reader.readLongOrZero(slot);
          if (object != 0) {
            out.add(new FinalizerEntry(h.index(), slot, object, ready));
          }
        }
      }
    }
    return out;
  }

  // ---- for the heap view, on the owner thread ----------------------------------------------

  /** The threads, on the owner thread. */
  List<ClrThread> threadsOnOwner() {
    return threads.threads();
  }

  /** The frame a stack reference came from, or null. On the owner thread. */
  StackFrame frameOf(SosDac.StackRefData ref) {
    return threads.frameOf(ref);
  }
}
