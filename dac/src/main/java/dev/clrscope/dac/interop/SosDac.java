package dev.clrscope.dac.interop;

import com.sun.jna.Callback;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * The calls this module makes into the DAC's SOS interfaces ({@code ISOSDacInterface}, 2, 8, 12 and
 * 14, from {@code sospriv.idl}), with the x64 layouts of their structures ({@code dacprivate.h};
 * those layouts are frozen). Each method returns a record, or null when the DAC answered with a
 * failure HRESULT: what a failure means is the caller's to say. Slot numbers count IUnknown's three
 * methods.
 *
 * <p>Not thread-safe, like the DAC: call it on the owning thread only.
 */
public final class SosDac {
  static final Guid IID_SOS = Guid.of("436f00f2-b42a-4b9f-870c-e73db66ae930");
  static final Guid IID_SOS2 = Guid.of("a16026ec-96f4-40ba-87fb-5575986fb7af");
  static final Guid IID_SOS8 = Guid.of("c12f35a9-e55c-4520-a894-b3dc5165dfce");
  static final Guid IID_SOS12 = Guid.of("1b93bacc-8ca4-432d-943a-3e6e7ec0b0a3");
  static final Guid IID_SOS14 = Guid.of("9aa22aca-6dc6-4a0c-b4e0-70d2416b9837");

  private final ComObject sos;
  private final ComObject sos2;
  private final ComObject sos8;
  private final ComObject sos12;
  private final ComObject sos14;

  private SosDac(ComObject sos, ComObject sos2, ComObject sos8, ComObject sos12, ComObject sos14) {
    this.sos = sos;
    this.sos2 = sos2;
    this.sos8 = sos8;
    this.sos12 = sos12;
    this.sos14 = sos14;
  }

  /** The SOS interfaces of a process object; null when it has not even ISOSDacInterface. */
  public static SosDac of(ComObject process) {
    ComObject sos = process.query(IID_SOS);
    if (sos == null) {
      return null;
    }
    return new SosDac(
        sos,
        process.query(IID_SOS2),
        process.query(IID_SOS8),
        process.query(IID_SOS12),
        process.query(IID_SOS14));
  }

  /** Whether ISOSDacInterface14 (static bases; .NET 9+) is there. */
  public boolean hasStaticBases() {
    return sos14 != null;
  }

  // ---- structures -------------------------------------------------------------------------

  public record GcHeapData(
      boolean serverMode, boolean structuresValid, int heapCount, int maxGeneration) {}

  public record Generation(
      long startSegment, long allocationStart, long allocContextPtr, long allocContextLimit) {}

  public record HeapDetails(
      long heapAddress,
      long allocAllocated,
      List<Generation> generations,
      long ephemeralHeapSegment,
      List<Long> finalizationFillPointers,
      long lowestAddress,
      long highestAddress) {}

  public record SegmentData(
      long segmentAddress,
      long allocated,
      long committed,
      long reserved,
      long used,
      long mem,
      long next,
      long gcHeap,
      long highAllocMark,
      long flags,
      long backgroundAllocated) {}

  public record UsefulGlobals(
      long arrayMt, long stringMt, long objectMt, long exceptionMt, long freeMt) {}

  public record MethodTableData(
      boolean isFree,
      long module,
      long canonicalMt,
      long parentMt,
      int baseSize,
      int componentSize,
      int token,
      int attrClass,
      boolean isDynamic,
      boolean containsPointers) {}

  public record MethodTableFieldData(
      int instanceFields, int staticFields, int threadStaticFields, long firstField) {}

  public record FieldDescData(
      int type,
      int sigType,
      long fieldMt,
      long fieldModule,
      int fieldTypeToken,
      int token,
      long enclosingMt,
      int offset,
      boolean isThreadLocal,
      boolean isStatic,
      long nextField) {}

  public record ObjectData(
      long methodTable,
      int objectType,
      long size,
      long elementTypeHandle,
      int elementType,
      int rank,
      long components,
      long componentSize,
      long arrayDataPtr) {}

  public record ThreadStoreData(
      int threadCount,
      int unstartedCount,
      int backgroundCount,
      int pendingCount,
      int deadCount,
      long firstThread,
      long finalizerThread,
      long gcThread) {}

  public record ThreadData(
      int managedId,
      int osId,
      int state,
      boolean cooperative,
      long allocContextPtr,
      long allocContextLimit,
      long frame,
      int lockCount,
      long firstNestedException,
      long lastThrownObjectHandle,
      long nextThread) {}

  public record ModuleData(
      long address,
      long peAssembly,
      long ilBase,
      long metadataStart,
      long metadataSize,
      long assembly,
      boolean isReflection,
      boolean isPeFile) {}

  public record MethodDescData(
      boolean hasNativeCode,
      boolean isDynamic,
      long nativeCodeAddress,
      long methodDesc,
      long methodTable,
      long module,
      int token) {}

  public record CodeHeaderData(long methodDesc, long methodStart, int methodSize) {}

  public record HandleData(long handle, long secondary, int type, boolean strong, int refCount) {}

  public record StackRefData(
      boolean hasRegister,
      int register,
      int offset,
      long address,
      long object,
      int flags,
      int sourceType,
      long source,
      long stackPointer) {}

  public record SyncBlockData(
      long object,
      boolean free,
      long syncBlockPointer,
      int monitorHeld,
      int recursion,
      long holdingThread,
      int additionalThreadCount,
      int syncBlockCount) {}

  public record ExceptionData(
      long message,
      long innerException,
      long stackTrace,
      long stackTraceString,
      long remoteStackTraceString,
      int hresult) {}

  // ---- calls ------------------------------------------------------------------------------

  private static ByteBuffer view(Memory m) {
    return m.getByteBuffer(0, m.size()).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static Memory struct(int size) {
    Memory m = new Memory(size);
    m.clear();
    return m;
  }

  /** Slot 3. */
  public ThreadStoreData threadStoreData() {
    Memory m = struct(56);
    if (sos.call(3, m) < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    return new ThreadStoreData(
        b.getInt(0),
        b.getInt(4),
        b.getInt(8),
        b.getInt(12),
        b.getInt(16),
        b.getLong(24),
        b.getLong(32),
        b.getLong(40));
  }

  /** Slot 4: the system domain and the app domain count ({@code [systemDomain, count]}). */
  public long[] appDomainStore() {
    Memory m = struct(24);
    if (sos.call(4, m) < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    return new long[] {b.getLong(8), b.getInt(16)};
  }

  /** Slot 5. */
  public long[] appDomainList(int count) {
    return addressList(count, (n, buf, needed) -> sos.call(5, n, buf, needed));
  }

  /** Slot 9. */
  public long[] assemblyList(long appDomain) {
    return sizedList((c, buf, nd) -> sos.call(9, appDomain, c, buf, nd));
  }

  /** Slot 15. */
  public long[] assemblyModuleList(long assembly) {
    return sizedList((c, buf, nd) -> sos.call(15, assembly, c, buf, nd));
  }

  // A list asked first with no room, for its size, then filled.
  private static long[] sizedList(ListCall call) {
    Memory needed = struct(4);
    if (call.call(0, null, needed) < 0) {
      return new long[0];
    }
    return addressList(needed.getInt(0), call);
  }

  private interface ListCall {
    int call(int count, Memory buffer, Memory needed);
  }

  private static long[] addressList(int count, ListCall call) {
    if (count <= 0) {
      return new long[0];
    }
    Memory buf = struct(8 * count);
    Memory needed = struct(4);
    if (call.call(count, buf, needed) < 0) {
      return new long[0];
    }
    int n = Math.min(count, Math.max(0, needed.getInt(0)));
    if (needed.getInt(0) == 0) {
      n = count;
    }
    return buf.getLongArray(0, n);
  }

  /** Slot 12: the module's IXCLRDataModule, or null. */
  public ComObject module(long module) {
    Memory out = struct(8);
    if (sos.call(12, module, out) < 0 || out.getPointer(0) == null) {
      return null;
    }
    return new ComObject(out.getPointer(0));
  }

  /** Slot 13. */
  public ModuleData moduleData(long module) {
    Memory m = struct(160);
    if (sos.call(13, module, m) < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    return new ModuleData(
        b.getLong(0),
        b.getLong(8),
        b.getLong(16),
        b.getLong(24),
        b.getLong(32),
        b.getLong(40),
        b.getInt(48) != 0,
        b.getInt(52) != 0);
  }

  /** The module-map callback: one call per type-def with a loaded method table. */
  public interface ModuleMapVisitor extends Callback {
    void invoke(int index, long methodTable, Pointer token);
  }

  /** Slot 14, TYPEDEFTOMETHODTABLE: every loaded type defined in {@code module}. */
  public boolean traverseTypeDefs(long module, LongConsumer methodTables) {
    ModuleMapVisitor visitor =
        (index, mt, token) -> {
          try {
            if (mt != 0) {
              methodTables.accept(mt);
            }
          } catch (Throwable e) {
            // Nothing may unwind into the DAC; a failing consumer loses its own entry only.
          }
        };
    try {
      return sos.call(14, 0, module, visitor, Pointer.NULL) >= 0;
    } finally {
      // The callback must stay reachable until the call returned.
      java.lang.ref.Reference.reachabilityFence(visitor);
    }
  }

  /** Slot 17. */
  public ThreadData threadData(long thread) {
    Memory m = struct(104);
    if (sos.call(17, thread, m) < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    return new ThreadData(
        b.getInt(0),
        b.getInt(4),
        b.getInt(8),
        b.getInt(12) != 0,
        b.getLong(16),
        b.getLong(24),
        b.getLong(48),
        b.getInt(56),
        b.getLong(64),
        b.getLong(88),
        b.getLong(96));
  }

  /** Slot 20. */
  public MethodDescData methodDescData(long methodDesc) {
    Memory m = struct(152);
    if (sos.call(20, methodDesc, 0L, m, 0, Pointer.NULL, Pointer.NULL) < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    return new MethodDescData(
        b.getInt(0) != 0,
        b.getInt(4) != 0,
        b.getLong(16),
        b.getLong(32),
        b.getLong(40),
        b.getLong(48),
        b.getInt(56));
  }

  /** Slot 21: the MethodDesc of the code at {@code ip}, or 0. */
  public long methodDescFromIp(long ip) {
    Memory out = struct(8);
    return sos.call(21, ip, out) < 0 ? 0 : out.getLong(0);
  }

  /** Slot 22. */
  public String methodDescName(long methodDesc) {
    return string((n, buf, needed) -> sos.call(22, methodDesc, n, buf, needed));
  }

  /** Slot 23: the MethodDesc of an explicit frame, or 0. */
  public long methodDescFromFrame(long frame) {
    Memory out = struct(8);
    return sos.call(23, frame, out) < 0 ? 0 : out.getLong(0);
  }

  /** Slot 26. */
  public CodeHeaderData codeHeaderData(long ip) {
    Memory m = struct(56);
    if (sos.call(26, ip, m) < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    return new CodeHeaderData(b.getLong(16), b.getLong(24), b.getInt(32));
  }

  /** Slot 33. */
  public ObjectData objectData(long address) {
    Memory m = struct(96);
    if (sos.call(33, address, m) < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    return new ObjectData(
        b.getLong(0),
        b.getInt(8),
        b.getLong(16),
        b.getLong(24),
        b.getInt(32),
        b.getInt(36),
        b.getLong(40),
        b.getLong(48),
        b.getLong(56));
  }

  /** Slot 36. */
  public String methodTableName(long mt) {
    return string((n, buf, needed) -> sos.call(36, mt, n, buf, needed));
  }

  /** Slot 37. */
  public MethodTableData methodTableData(long mt) {
    Memory m = struct(72);
    if (sos.call(37, mt, m) < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    return new MethodTableData(
        b.getInt(0) != 0,
        b.getLong(8),
        b.getLong(16),
        b.getLong(24),
        b.getInt(40),
        b.getInt(44),
        b.getInt(48),
        b.getInt(52),
        b.getInt(60) != 0,
        b.getInt(64) != 0);
  }

  /** Slot 39. */
  public MethodTableFieldData methodTableFieldData(long mt) {
    Memory m = struct(24);
    if (sos.call(39, mt, m) < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    return new MethodTableFieldData(
        Short.toUnsignedInt(b.getShort(0)), Short.toUnsignedInt(b.getShort(2)),
        Short.toUnsignedInt(b.getShort(4)), b.getLong(8));
  }

  /** Slot 42. */
  public FieldDescData fieldDescData(long fieldDesc) {
    Memory m = struct(64);
    if (sos.call(42, fieldDesc, m) < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    return new FieldDescData(
        b.getInt(0),
        b.getInt(4),
        b.getLong(8),
        b.getLong(16),
        b.getInt(24),
        b.getInt(28),
        b.getLong(32),
        b.getInt(40),
        b.getInt(44) != 0,
        b.getInt(52) != 0,
        b.getLong(56));
  }

  /** Slot 43: the name of an explicit frame's type, by its vtable. */
  public String frameName(long vtable) {
    return string((n, buf, needed) -> sos.call(43, vtable, n, buf, needed));
  }

  /** Slot 45. */
  public String peFileName(long peFile) {
    return string((n, buf, needed) -> sos.call(45, peFile, n, buf, needed));
  }

  /** Slot 46. */
  public GcHeapData gcHeapData() {
    Memory m = struct(16);
    if (sos.call(46, m) < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    return new GcHeapData(b.getInt(0) != 0, b.getInt(4) != 0, b.getInt(8), b.getInt(12));
  }

  /** Slot 47: the server GC's heaps. */
  public long[] gcHeapList(int count) {
    return addressList(count, (n, buf, needed) -> sos.call(47, n, buf, needed));
  }

  /** Slot 48 (server GC, one heap) or 49 (workstation GC, heap 0). */
  public HeapDetails heapDetails(long heap) {
    Memory m = struct(288);
    int hr = heap != 0 ? sos.call(48, heap, m) : sos.call(49, m);
    if (hr < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    List<Generation> gens = new java.util.ArrayList<>();
    for (int i = 0; i < 4; i++) {
      int at = 72 + 32 * i;
      gens.add(
          new Generation(b.getLong(at), b.getLong(at + 8), b.getLong(at + 16), b.getLong(at + 24)));
    }
    List<Long> fill = new java.util.ArrayList<>();
    for (int i = 0; i < 7; i++) {
      fill.add(b.getLong(208 + 8 * i));
    }
    return new HeapDetails(
        b.getLong(0),
        b.getLong(8),
        List.copyOf(gens),
        b.getLong(200),
        List.copyOf(fill),
        b.getLong(264),
        b.getLong(272));
  }

  /** Slot 50. */
  public SegmentData segmentData(long segment) {
    Memory m = struct(88);
    if (sos.call(50, segment, m) < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    return new SegmentData(
        b.getLong(0),
        b.getLong(8),
        b.getLong(16),
        b.getLong(24),
        b.getLong(32),
        b.getLong(40),
        b.getLong(48),
        b.getLong(56),
        b.getLong(64),
        b.getLong(72),
        b.getLong(80));
  }

  /** Slot 59: sync block {@code number} (1-based). */
  public SyncBlockData syncBlockData(int number) {
    Memory m = struct(72);
    if (sos.call(59, number, m) < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    return new SyncBlockData(
        b.getLong(0),
        b.getInt(8) != 0,
        b.getLong(16),
        b.getInt(28),
        b.getInt(32),
        b.getLong(40),
        b.getInt(48),
        b.getInt(64));
  }

  /** Slot 61: every handle. */
  public void handles(java.util.function.Consumer<HandleData> visitor) {
    Memory out = struct(8);
    if (sos.call(61, out) < 0 || out.getPointer(0) == null) {
      return;
    }
    drain(
        new ComObject(out.getPointer(0)),
        48,
        (b, at) ->
            visitor.accept(
                new HandleData(
                    b.getLong(at + 8),
                    b.getLong(at + 16),
                    b.getInt(at + 24),
                    b.getInt(at + 28) != 0,
                    b.getInt(at + 32))));
  }

  private interface Item {
    void read(ByteBuffer items, int at);
  }

  // Takes every item of an ISOSEnum (slot 6, Next) in batches, then releases it; false when the
  // DAC failed on the way.
  private static boolean drain(ComObject e, int itemSize, Item item) {
    try {
      int batch = 256;
      Memory buf = struct(itemSize * batch);
      Memory fetched = struct(4);
      while (true) {
        int hr = e.call(6, batch, buf, fetched);
        if (hr < 0) {
          return false;
        }
        int n = Math.min(batch, fetched.getInt(0));
        ByteBuffer b = view(buf);
        for (int i = 0; i < n; i++) {
          item.read(b, itemSize * i);
        }
        if (n < batch || hr != Hresult.S_OK) {
          return true;
        }
      }
    } finally {
      e.release();
    }
  }

  /** Slot 70. */
  public UsefulGlobals usefulGlobals() {
    Memory m = struct(40);
    if (sos.call(70, m) < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    return new UsefulGlobals(
        b.getLong(0), b.getLong(8), b.getLong(16), b.getLong(24), b.getLong(32));
  }

  /** Slot 79: the GC references on one thread's stack; false when the DAC cannot walk it. */
  public boolean stackReferences(
      int osThreadId, java.util.function.Consumer<StackRefData> visitor) {
    Memory out = struct(8);
    if (sos.call(79, osThreadId, out) < 0 || out.getPointer(0) == null) {
      return false;
    }
    return drain(
        new ComObject(out.getPointer(0)),
        56,
        (b, at) ->
            visitor.accept(
                new StackRefData(
                    b.getInt(at) != 0,
                    b.getInt(at + 4),
                    b.getInt(at + 8),
                    b.getLong(at + 16),
                    b.getLong(at + 24),
                    b.getInt(at + 32),
                    b.getInt(at + 36),
                    b.getLong(at + 40),
                    b.getLong(at + 48))));
  }

  /** ISOSDacInterface2 slot 3. */
  public ExceptionData exceptionData(long exception) {
    if (sos2 == null) {
      return null;
    }
    Memory m = struct(56);
    if (sos2.call(3, exception, m) < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    return new ExceptionData(
        b.getLong(0), b.getLong(8), b.getLong(16), b.getLong(32), b.getLong(40), b.getInt(48));
  }

  /** ISOSDacInterface8 slots 4 and 6: the generation table of one heap (0: workstation). */
  public Generation[] generationTable(long heap) {
    if (sos8 == null) {
      return null;
    }
    Memory needed = struct(4);
    int hr =
        heap == 0
            ? sos8.call(4, 0, Pointer.NULL, needed)
            : sos8.call(6, heap, 0, Pointer.NULL, needed);
    int n = needed.getInt(0);
    if (n <= 0
        || n > 64
        || (hr < 0 && hr != 0x8007007a /* insufficient buffer */ && hr != Hresult.S_FALSE)) {
      return null;
    }
    Memory m = struct(32 * n);
    hr = heap == 0 ? sos8.call(4, n, m, needed) : sos8.call(6, heap, n, m, needed);
    if (hr < 0) {
      return null;
    }
    ByteBuffer b = view(m);
    Generation[] gens = new Generation[n];
    for (int i = 0; i < n; i++) {
      int at = 32 * i;
      gens[i] =
          new Generation(b.getLong(at), b.getLong(at + 8), b.getLong(at + 16), b.getLong(at + 24));
    }
    return gens;
  }

  /** ISOSDacInterface8 slots 5 and 7: the finalization queue's fill pointers of one heap. */
  public long[] finalizationFillPointers(long heap) {
    if (sos8 == null) {
      return null;
    }
    Memory needed = struct(4);
    // Asked with no room first: the DAC answers how many there are.
    if (heap == 0) {
      sos8.call(5, 0, Pointer.NULL, needed);
    } else {
      sos8.call(7, heap, 0, Pointer.NULL, needed);
    }
    int n = needed.getInt(0);
    if (n <= 0 || n > 64) {
      return null;
    }
    Memory m = struct(8 * n);
    int filled = heap == 0 ? sos8.call(5, n, m, needed) : sos8.call(7, heap, n, m, needed);
    return filled < 0 ? null : m.getLongArray(0, n);
  }

  /** ISOSDacInterface12 slot 3: the global allocation context {@code [ptr, limit]}, or null. */
  public long[] globalAllocationContext() {
    if (sos12 == null) {
      return null;
    }
    Memory ptr = struct(8);
    Memory limit = struct(8);
    if (sos12.call(3, ptr, limit) < 0) {
      return null;
    }
    return new long[] {ptr.getLong(0), limit.getLong(0)};
  }

  /** ISOSDacInterface14 slot 3: {@code [nonGcBase, gcBase]} of a type's statics, or null. */
  public long[] staticBases(long mt) {
    if (sos14 == null) {
      return null;
    }
    Memory nonGc = struct(8);
    Memory gc = struct(8);
    if (sos14.call(3, mt, nonGc, gc) < 0) {
      return null;
    }
    return new long[] {nonGc.getLong(0), gc.getLong(0)};
  }

  /** ISOSDacInterface14 slot 4: {@code [nonGcBase, gcBase]} of a type's statics on a thread. */
  public long[] threadStaticBases(long mt, long thread) {
    if (sos14 == null) {
      return null;
    }
    Memory nonGc = struct(8);
    Memory gc = struct(8);
    if (sos14.call(4, mt, thread, nonGc, gc) < 0) {
      return null;
    }
    return new long[] {nonGc.getLong(0), gc.getLong(0)};
  }

  /** ISOSDacInterface14 slot 5: whether a type's class constructor has run. */
  public boolean isInitialized(long mt) {
    if (sos14 == null) {
      return true;
    }
    Memory out = struct(4);
    return sos14.call(5, mt, out) >= 0 && (out.getInt(0) & 1) != 0;
  }

  private interface StringCall {
    int call(int count, Memory buffer, Memory needed);
  }

  // The DAC's strings: UTF-16 (2-byte WCHAR), asked first into a buffer of 512 characters, then
  // again into one of the size it said it needs.
  private static String string(StringCall call) {
    int count = 512;
    for (int attempt = 0; attempt < 3; attempt++) {
      Memory buf = struct(2 * count);
      Memory needed = struct(4);
      int hr = call.call(count, buf, needed);
      int need = needed.getInt(0);
      if (hr < 0 && need <= count) {
        return null;
      }
      if (need > count && need < (1 << 20)) {
        count = need;
        continue;
      }
      return utf16(buf, count);
    }
    return null;
  }

  static String utf16(Memory buf, int maxChars) {
    int n = 0;
    while (n < maxChars && buf.getShort(2L * n) != 0) {
      n++;
    }
    return new String(buf.getByteArray(0, 2 * n), StandardCharsets.UTF_16LE);
  }
}
