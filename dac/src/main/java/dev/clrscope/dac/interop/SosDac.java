package dev.clrscope.dac.interop;

import com.sun.jna.Callback;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.clrscope.dac.interop.DacInterfaces.ISOSDacInterface;
import dev.clrscope.dac.interop.DacInterfaces.ISOSDacInterface12;
import dev.clrscope.dac.interop.DacInterfaces.ISOSDacInterface14;
import dev.clrscope.dac.interop.DacInterfaces.ISOSDacInterface2;
import dev.clrscope.dac.interop.DacInterfaces.ISOSDacInterface8;
import dev.clrscope.dac.interop.DacInterfaces.ISOSHandleEnum;
import dev.clrscope.dac.interop.DacInterfaces.ISOSStackRefEnum;
import dev.clrscope.dac.interop.DacInterfaces.IXCLRDataModule;
import dev.clrscope.dac.interop.DacInterfaces.IXCLRDataProcess;
import dev.clrscope.dac.interop.DacStructs.DacpAppDomainStoreData;
import dev.clrscope.dac.interop.DacStructs.DacpCodeHeaderData;
import dev.clrscope.dac.interop.DacStructs.DacpDomainLocalModuleData;
import dev.clrscope.dac.interop.DacStructs.DacpExceptionObjectData;
import dev.clrscope.dac.interop.DacStructs.DacpFieldDescData;
import dev.clrscope.dac.interop.DacStructs.DacpGcHeapData;
import dev.clrscope.dac.interop.DacStructs.DacpGcHeapDetails;
import dev.clrscope.dac.interop.DacStructs.DacpGenerationData;
import dev.clrscope.dac.interop.DacStructs.DacpHeapSegmentData;
import dev.clrscope.dac.interop.DacStructs.DacpMethodDescData;
import dev.clrscope.dac.interop.DacStructs.DacpMethodTableData;
import dev.clrscope.dac.interop.DacStructs.DacpMethodTableFieldData;
import dev.clrscope.dac.interop.DacStructs.DacpModuleData;
import dev.clrscope.dac.interop.DacStructs.DacpObjectData;
import dev.clrscope.dac.interop.DacStructs.DacpSyncBlockData;
import dev.clrscope.dac.interop.DacStructs.DacpThreadData;
import dev.clrscope.dac.interop.DacStructs.DacpThreadLocalModuleData;
import dev.clrscope.dac.interop.DacStructs.DacpThreadStoreData;
import dev.clrscope.dac.interop.DacStructs.DacpUsefulGlobalsData;
import dev.clrscope.dac.interop.DacStructs.SOSHandleData;
import dev.clrscope.dac.interop.DacStructs.SOSStackRefData;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.ToIntFunction;

/**
 * The calls this module makes into the DAC's SOS interfaces ({@code ISOSDacInterface}, 2, 8, 12 and
 * 14), each naming its method as {@link DacInterfaces} declares it and reading what the DAC filled
 * through the structure's declared layout ({@link DacStructs}). Each method returns a record, or
 * null when the DAC answered with a failure HRESULT: what a failure means is the caller's to say.
 *
 * <p>Not thread-safe, like the DAC: call it on the owning thread only.
 */
public final class SosDac {
  private final ComObject<ISOSDacInterface> sos;
  private final ComObject<ISOSDacInterface2> sos2;
  private final ComObject<ISOSDacInterface8> sos8;
  private final ComObject<ISOSDacInterface12> sos12;
  private final ComObject<ISOSDacInterface14> sos14;

  private SosDac(
      ComObject<ISOSDacInterface> sos,
      ComObject<ISOSDacInterface2> sos2,
      ComObject<ISOSDacInterface8> sos8,
      ComObject<ISOSDacInterface12> sos12,
      ComObject<ISOSDacInterface14> sos14) {
    this.sos = sos;
    this.sos2 = sos2;
    this.sos8 = sos8;
    this.sos12 = sos12;
    this.sos14 = sos14;
  }

  /** The SOS interfaces of a process object; null when it has not even ISOSDacInterface. */
  public static SosDac of(ComObject<IXCLRDataProcess> process) {
    ComObject<ISOSDacInterface> sos = process.query(ISOSDacInterface.ID);
    if (sos == null) {
      return null;
    }
    return new SosDac(
        sos,
        process.query(ISOSDacInterface2.ID),
        process.query(ISOSDacInterface8.ID),
        process.query(ISOSDacInterface12.ID),
        process.query(ISOSDacInterface14.ID));
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
      long eeClass,
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
      boolean isPeFile,
      long moduleIndex,
      long typeDefMap) {}

  /**
   * Where a module's statics are before .NET 9 (its DomainLocalModule, or on one thread its
   * ThreadLocalModule): a byte of flags per type (indexed by its type-def row less one), and the
   * bases the fields' offsets count from.
   */
  public record LocalModuleData(
      long classData, long dynamicClassTable, long gcStaticsStart, long nonGcStaticsStart) {}

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

  /**
   * Asks the DAC to fill one structure: {@code call} passes it the zeroed memory; null when the DAC
   * answered with a failure.
   */
  private static <F extends Enum<F> & StructField> Struct<F> fill(
      StructLayout<F> layout, ToIntFunction<Memory> call) {
    Memory m = layout.allocate(1);
    return call.applyAsInt(m) < 0 ? null : layout.view(m);
  }

  private static Memory zeroed(int size) {
    Memory m = new Memory(size);
    m.clear();
    return m;
  }

  public ThreadStoreData threadStoreData() {
    Struct<DacpThreadStoreData> d =
        fill(DacpThreadStoreData.LAYOUT, m -> sos.call(ISOSDacInterface.GetThreadStoreData, m));
    if (d == null) {
      return null;
    }
    return new ThreadStoreData(
        d.int32(DacpThreadStoreData.threadCount),
        d.int32(DacpThreadStoreData.unstartedThreadCount),
        d.int32(DacpThreadStoreData.backgroundThreadCount),
        d.int32(DacpThreadStoreData.pendingThreadCount),
        d.int32(DacpThreadStoreData.deadThreadCount),
        d.address(DacpThreadStoreData.firstThread),
        d.address(DacpThreadStoreData.finalizerThread),
        d.address(DacpThreadStoreData.gcThread));
  }

  /** The system domain and the app domain count ({@code [systemDomain, count]}). */
  public long[] appDomainStore() {
    Struct<DacpAppDomainStoreData> d =
        fill(
            DacpAppDomainStoreData.LAYOUT,
            m -> sos.call(ISOSDacInterface.GetAppDomainStoreData, m));
    if (d == null) {
      return null;
    }
    return new long[] {
      d.address(DacpAppDomainStoreData.systemDomain), d.int32(DacpAppDomainStoreData.DomainCount)
    };
  }

  public long[] appDomainList(int count) {
    return addressList(
        count, (n, buf, needed) -> sos.call(ISOSDacInterface.GetAppDomainList, n, buf, needed));
  }

  public long[] assemblyList(long appDomain) {
    return sizedList(
        (c, buf, nd) -> sos.call(ISOSDacInterface.GetAssemblyList, appDomain, c, buf, nd));
  }

  public long[] assemblyModuleList(long assembly) {
    return sizedList(
        (c, buf, nd) -> sos.call(ISOSDacInterface.GetAssemblyModuleList, assembly, c, buf, nd));
  }

  // A list asked first with no room, for its size, then filled.
  private static long[] sizedList(ListCall call) {
    Memory needed = zeroed(4);
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
    Memory buf = zeroed(8 * count);
    Memory needed = zeroed(4);
    if (call.call(count, buf, needed) < 0) {
      return new long[0];
    }
    int n = Math.min(count, Math.max(0, needed.getInt(0)));
    if (needed.getInt(0) == 0) {
      n = count;
    }
    return buf.getLongArray(0, n);
  }

  /** The module's IXCLRDataModule, or null. */
  public ComObject<IXCLRDataModule> module(long module) {
    Memory out = zeroed(8);
    if (sos.call(ISOSDacInterface.GetModule, module, out) < 0 || out.getPointer(0) == null) {
      return null;
    }
    return new ComObject<>(out.getPointer(0), IXCLRDataModule.ID);
  }

  public ModuleData moduleData(long module) {
    Struct<DacpModuleData> d =
        fill(DacpModuleData.LAYOUT, m -> sos.call(ISOSDacInterface.GetModuleData, module, m));
    if (d == null) {
      return null;
    }
    return new ModuleData(
        d.address(DacpModuleData.Address),
        d.address(DacpModuleData.PEAssembly),
        d.address(DacpModuleData.ilBase),
        d.address(DacpModuleData.metadataStart),
        d.uint64(DacpModuleData.metadataSize),
        d.address(DacpModuleData.Assembly),
        d.bool(DacpModuleData.bIsReflection),
        d.bool(DacpModuleData.bIsPEFile),
        d.uint64(DacpModuleData.dwModuleIndex),
        d.address(DacpModuleData.TypeDefToMethodTableMap));
  }

  /** A module's statics before .NET 9 ({@code GetDomainLocalModuleDataFromModule}), or null. */
  public LocalModuleData domainLocalModule(long module) {
    Struct<DacpDomainLocalModuleData> d =
        fill(
            DacpDomainLocalModuleData.LAYOUT,
            m -> sos.call(ISOSDacInterface.GetDomainLocalModuleDataFromModule, module, m));
    if (d == null) {
      return null;
    }
    return new LocalModuleData(
        d.address(DacpDomainLocalModuleData.pClassData),
        d.address(DacpDomainLocalModuleData.pDynamicClassTable),
        d.address(DacpDomainLocalModuleData.pGCStaticDataStart),
        d.address(DacpDomainLocalModuleData.pNonGCStaticDataStart));
  }

  /**
   * A module's thread statics on a thread before .NET 9 ({@code GetThreadLocalModuleData}), or null
   * when the thread has none of that module's.
   */
  public LocalModuleData threadLocalModule(long thread, long moduleIndex) {
    Struct<DacpThreadLocalModuleData> d =
        fill(
            DacpThreadLocalModuleData.LAYOUT,
            m -> sos.call(ISOSDacInterface.GetThreadLocalModuleData, thread, (int) moduleIndex, m));
    if (d == null) {
      return null;
    }
    return new LocalModuleData(
        d.address(DacpThreadLocalModuleData.pClassData),
        d.address(DacpThreadLocalModuleData.pDynamicClassTable),
        d.address(DacpThreadLocalModuleData.pGCStaticDataStart),
        d.address(DacpThreadLocalModuleData.pNonGCStaticDataStart));
  }

  /** The module-map callback ({@code MODULEMAPTRAVERSE}): one call per type-def. */
  public interface ModuleMapVisitor extends Callback {
    void invoke(int index, long methodTable, Pointer token);
  }

  /** {@code ModuleMapType.TYPEDEFTOMETHODTABLE}. */
  private static final int TYPEDEF_TO_METHODTABLE = 0;

  /** TraverseModuleMap over the type-defs: every loaded type defined in {@code module}. */
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
      return sos.call(
              ISOSDacInterface.TraverseModuleMap,
              TYPEDEF_TO_METHODTABLE,
              module,
              visitor,
              Pointer.NULL)
          >= 0;
    } finally {
      // The callback must stay reachable until the call returned.
      java.lang.ref.Reference.reachabilityFence(visitor);
    }
  }

  public ThreadData threadData(long thread) {
    Struct<DacpThreadData> d =
        fill(DacpThreadData.LAYOUT, m -> sos.call(ISOSDacInterface.GetThreadData, thread, m));
    if (d == null) {
      return null;
    }
    return new ThreadData(
        d.int32(DacpThreadData.corThreadId),
        d.int32(DacpThreadData.osThreadId),
        d.int32(DacpThreadData.state),
        d.bool(DacpThreadData.preemptiveGCDisabled),
        d.address(DacpThreadData.allocContextPtr),
        d.address(DacpThreadData.allocContextLimit),
        d.address(DacpThreadData.pFrame),
        d.int32(DacpThreadData.lockCount),
        d.address(DacpThreadData.firstNestedException),
        d.address(DacpThreadData.lastThrownObjectHandle),
        d.address(DacpThreadData.nextThread));
  }

  public MethodDescData methodDescData(long methodDesc) {
    Struct<DacpMethodDescData> d =
        fill(
            DacpMethodDescData.LAYOUT,
            m ->
                sos.call(
                    ISOSDacInterface.GetMethodDescData,
                    methodDesc,
                    0L,
                    m,
                    0,
                    Pointer.NULL,
                    Pointer.NULL));
    if (d == null) {
      return null;
    }
    return new MethodDescData(
        d.bool(DacpMethodDescData.bHasNativeCode),
        d.bool(DacpMethodDescData.bIsDynamic),
        d.address(DacpMethodDescData.NativeCodeAddr),
        d.address(DacpMethodDescData.MethodDescPtr),
        d.address(DacpMethodDescData.MethodTablePtr),
        d.address(DacpMethodDescData.ModulePtr),
        d.int32(DacpMethodDescData.MDToken));
  }

  /** The MethodDesc of the code at {@code ip}, or 0. */
  public long methodDescFromIp(long ip) {
    Memory out = zeroed(8);
    return sos.call(ISOSDacInterface.GetMethodDescPtrFromIP, ip, out) < 0 ? 0 : out.getLong(0);
  }

  public String methodDescName(long methodDesc) {
    return string(
        (n, buf, needed) ->
            sos.call(ISOSDacInterface.GetMethodDescName, methodDesc, n, buf, needed));
  }

  /** The MethodDesc of an explicit frame, or 0. */
  public long methodDescFromFrame(long frame) {
    Memory out = zeroed(8);
    return sos.call(ISOSDacInterface.GetMethodDescPtrFromFrame, frame, out) < 0
        ? 0
        : out.getLong(0);
  }

  public CodeHeaderData codeHeaderData(long ip) {
    Struct<DacpCodeHeaderData> d =
        fill(DacpCodeHeaderData.LAYOUT, m -> sos.call(ISOSDacInterface.GetCodeHeaderData, ip, m));
    if (d == null) {
      return null;
    }
    return new CodeHeaderData(
        d.address(DacpCodeHeaderData.MethodDescPtr),
        d.address(DacpCodeHeaderData.MethodStart),
        d.int32(DacpCodeHeaderData.MethodSize));
  }

  public ObjectData objectData(long address) {
    Struct<DacpObjectData> d =
        fill(DacpObjectData.LAYOUT, m -> sos.call(ISOSDacInterface.GetObjectData, address, m));
    if (d == null) {
      return null;
    }
    return new ObjectData(
        d.address(DacpObjectData.MethodTable),
        d.int32(DacpObjectData.ObjectType),
        d.uint64(DacpObjectData.Size),
        d.address(DacpObjectData.ElementTypeHandle),
        d.int32(DacpObjectData.ElementType),
        d.int32(DacpObjectData.dwRank),
        d.uint64(DacpObjectData.dwNumComponents),
        d.uint64(DacpObjectData.dwComponentSize),
        d.address(DacpObjectData.ArrayDataPtr));
  }

  public String methodTableName(long mt) {
    return string(
        (n, buf, needed) -> sos.call(ISOSDacInterface.GetMethodTableName, mt, n, buf, needed));
  }

  public MethodTableData methodTableData(long mt) {
    Struct<DacpMethodTableData> d =
        fill(DacpMethodTableData.LAYOUT, m -> sos.call(ISOSDacInterface.GetMethodTableData, mt, m));
    if (d == null) {
      return null;
    }
    return new MethodTableData(
        d.bool(DacpMethodTableData.bIsFree),
        d.address(DacpMethodTableData.Module),
        d.address(DacpMethodTableData.Class),
        d.address(DacpMethodTableData.ParentMethodTable),
        d.int32(DacpMethodTableData.BaseSize),
        d.int32(DacpMethodTableData.ComponentSize),
        d.int32(DacpMethodTableData.cl),
        d.int32(DacpMethodTableData.dwAttrClass),
        d.bool(DacpMethodTableData.bIsDynamic),
        d.bool(DacpMethodTableData.bContainsPointers));
  }

  public MethodTableFieldData methodTableFieldData(long mt) {
    Struct<DacpMethodTableFieldData> d =
        fill(
            DacpMethodTableFieldData.LAYOUT,
            m -> sos.call(ISOSDacInterface.GetMethodTableFieldData, mt, m));
    if (d == null) {
      return null;
    }
    return new MethodTableFieldData(
        d.uint16(DacpMethodTableFieldData.wNumInstanceFields),
        d.uint16(DacpMethodTableFieldData.wNumStaticFields),
        d.uint16(DacpMethodTableFieldData.wNumThreadStaticFields),
        d.address(DacpMethodTableFieldData.FirstField));
  }

  public FieldDescData fieldDescData(long fieldDesc) {
    Struct<DacpFieldDescData> d =
        fill(
            DacpFieldDescData.LAYOUT,
            m -> sos.call(ISOSDacInterface.GetFieldDescData, fieldDesc, m));
    if (d == null) {
      return null;
    }
    return new FieldDescData(
        d.int32(DacpFieldDescData.Type),
        d.int32(DacpFieldDescData.sigType),
        d.address(DacpFieldDescData.MTOfType),
        d.address(DacpFieldDescData.ModuleOfType),
        d.int32(DacpFieldDescData.TokenOfType),
        d.int32(DacpFieldDescData.mb),
        d.address(DacpFieldDescData.MTOfEnclosingClass),
        d.int32(DacpFieldDescData.dwOffset),
        d.bool(DacpFieldDescData.bIsThreadLocal),
        d.bool(DacpFieldDescData.bIsStatic),
        d.address(DacpFieldDescData.NextField));
  }

  /** The name of an explicit frame's type, by its vtable. */
  public String frameName(long vtable) {
    return string(
        (n, buf, needed) -> sos.call(ISOSDacInterface.GetFrameName, vtable, n, buf, needed));
  }

  public String peFileName(long peFile) {
    return string(
        (n, buf, needed) -> sos.call(ISOSDacInterface.GetPEFileName, peFile, n, buf, needed));
  }

  public GcHeapData gcHeapData() {
    Struct<DacpGcHeapData> d =
        fill(DacpGcHeapData.LAYOUT, m -> sos.call(ISOSDacInterface.GetGCHeapData, m));
    if (d == null) {
      return null;
    }
    return new GcHeapData(
        d.bool(DacpGcHeapData.bServerMode),
        d.bool(DacpGcHeapData.bGcStructuresValid),
        d.int32(DacpGcHeapData.HeapCount),
        d.int32(DacpGcHeapData.g_max_generation));
  }

  /** The server GC's heaps. */
  public long[] gcHeapList(int count) {
    return addressList(
        count, (n, buf, needed) -> sos.call(ISOSDacInterface.GetGCHeapList, n, buf, needed));
  }

  /** One heap of the server GC ({@code heap} its address), or the workstation GC's ({@code 0}). */
  public HeapDetails heapDetails(long heap) {
    Struct<DacpGcHeapDetails> d =
        fill(
            DacpGcHeapDetails.LAYOUT,
            m ->
                heap != 0
                    ? sos.call(ISOSDacInterface.GetGCHeapDetails, heap, m)
                    : sos.call(ISOSDacInterface.GetGCHeapStaticData, m));
    if (d == null) {
      return null;
    }
    List<Generation> gens = new java.util.ArrayList<>();
    for (int i = 0; i < 4; i++) {
      gens.add(
          generation(d.struct(DacpGcHeapDetails.generation_table, i, DacpGenerationData.LAYOUT)));
    }
    List<Long> fill = new java.util.ArrayList<>();
    for (int i = 0; i < 7; i++) {
      fill.add(d.address(DacpGcHeapDetails.finalization_fill_pointers, i));
    }
    return new HeapDetails(
        d.address(DacpGcHeapDetails.heapAddr),
        d.address(DacpGcHeapDetails.alloc_allocated),
        List.copyOf(gens),
        d.address(DacpGcHeapDetails.ephemeral_heap_segment),
        List.copyOf(fill),
        d.address(DacpGcHeapDetails.lowest_address),
        d.address(DacpGcHeapDetails.highest_address));
  }

  private static Generation generation(Struct<DacpGenerationData> g) {
    return new Generation(
        g.address(DacpGenerationData.start_segment),
        g.address(DacpGenerationData.allocation_start),
        g.address(DacpGenerationData.allocContextPtr),
        g.address(DacpGenerationData.allocContextLimit));
  }

  public SegmentData segmentData(long segment) {
    Struct<DacpHeapSegmentData> d =
        fill(
            DacpHeapSegmentData.LAYOUT,
            m -> sos.call(ISOSDacInterface.GetHeapSegmentData, segment, m));
    if (d == null) {
      return null;
    }
    return new SegmentData(
        d.address(DacpHeapSegmentData.segmentAddr),
        d.address(DacpHeapSegmentData.allocated),
        d.address(DacpHeapSegmentData.committed),
        d.address(DacpHeapSegmentData.reserved),
        d.address(DacpHeapSegmentData.used),
        d.address(DacpHeapSegmentData.mem),
        d.address(DacpHeapSegmentData.next),
        d.address(DacpHeapSegmentData.gc_heap),
        d.address(DacpHeapSegmentData.highAllocMark),
        d.uint64(DacpHeapSegmentData.flags),
        d.address(DacpHeapSegmentData.background_allocated));
  }

  /** Sync block {@code number} (1-based). */
  public SyncBlockData syncBlockData(int number) {
    Struct<DacpSyncBlockData> d =
        fill(DacpSyncBlockData.LAYOUT, m -> sos.call(ISOSDacInterface.GetSyncBlockData, number, m));
    if (d == null) {
      return null;
    }
    return new SyncBlockData(
        d.address(DacpSyncBlockData.Object),
        d.bool(DacpSyncBlockData.bFree),
        d.address(DacpSyncBlockData.SyncBlockPointer),
        d.int32(DacpSyncBlockData.MonitorHeld),
        d.int32(DacpSyncBlockData.Recursion),
        d.address(DacpSyncBlockData.HoldingThread),
        d.int32(DacpSyncBlockData.AdditionalThreadCount),
        d.int32(DacpSyncBlockData.SyncBlockCount));
  }

  /** Every handle. */
  public void handles(Consumer<HandleData> visitor) {
    Memory out = zeroed(8);
    if (sos.call(ISOSDacInterface.GetHandleEnum, out) < 0 || out.getPointer(0) == null) {
      return;
    }
    ComObject<ISOSHandleEnum> e = new ComObject<>(out.getPointer(0), ISOSHandleEnum.ID);
    drain(
        SOSHandleData.LAYOUT,
        (n, buf, fetched) -> e.call(ISOSHandleEnum.Next, n, buf, fetched),
        e::release,
        h ->
            visitor.accept(
                new HandleData(
                    h.address(SOSHandleData.Handle),
                    h.address(SOSHandleData.Secondary),
                    h.int32(SOSHandleData.Type),
                    h.bool(SOSHandleData.StrongReference),
                    h.int32(SOSHandleData.RefCount))));
  }

  // Takes every item of an enumerator ({@code Next}) in batches, then releases it; false when the
  // DAC failed on the way.
  private static <F extends Enum<F> & StructField> boolean drain(
      StructLayout<F> item, ListCall next, Runnable release, Consumer<Struct<F>> visitor) {
    try {
      int batch = 256;
      Memory buf = item.allocate(batch);
      Memory fetched = zeroed(4);
      while (true) {
        int hr = next.call(batch, buf, fetched);
        if (hr < 0) {
          return false;
        }
        int n = Math.min(batch, fetched.getInt(0));
        ByteBuffer b = buf.getByteBuffer(0, buf.size()).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
          visitor.accept(item.view(b, item.size() * i));
        }
        if (n < batch || hr != Hresult.S_OK) {
          return true;
        }
      }
    } finally {
      release.run();
    }
  }

  public UsefulGlobals usefulGlobals() {
    Struct<DacpUsefulGlobalsData> d =
        fill(DacpUsefulGlobalsData.LAYOUT, m -> sos.call(ISOSDacInterface.GetUsefulGlobals, m));
    if (d == null) {
      return null;
    }
    return new UsefulGlobals(
        d.address(DacpUsefulGlobalsData.ArrayMethodTable),
        d.address(DacpUsefulGlobalsData.StringMethodTable),
        d.address(DacpUsefulGlobalsData.ObjectMethodTable),
        d.address(DacpUsefulGlobalsData.ExceptionMethodTable),
        d.address(DacpUsefulGlobalsData.FreeMethodTable));
  }

  /** The GC references on one thread's stack; false when the DAC cannot walk it. */
  public boolean stackReferences(int osThreadId, Consumer<StackRefData> visitor) {
    Memory out = zeroed(8);
    if (sos.call(ISOSDacInterface.GetStackReferences, osThreadId, out) < 0
        || out.getPointer(0) == null) {
      return false;
    }
    ComObject<ISOSStackRefEnum> e = new ComObject<>(out.getPointer(0), ISOSStackRefEnum.ID);
    return drain(
        SOSStackRefData.LAYOUT,
        (n, buf, fetched) -> e.call(ISOSStackRefEnum.Next, n, buf, fetched),
        e::release,
        r ->
            visitor.accept(
                new StackRefData(
                    r.bool(SOSStackRefData.HasRegisterInformation),
                    r.int32(SOSStackRefData.Register),
                    r.int32(SOSStackRefData.Offset),
                    r.address(SOSStackRefData.Address),
                    r.address(SOSStackRefData.Object),
                    r.int32(SOSStackRefData.Flags),
                    r.int32(SOSStackRefData.SourceType),
                    r.address(SOSStackRefData.Source),
                    r.address(SOSStackRefData.StackPointer))));
  }

  /** An exception's fields (ISOSDacInterface2). */
  public ExceptionData exceptionData(long exception) {
    if (sos2 == null) {
      return null;
    }
    Struct<DacpExceptionObjectData> d =
        fill(
            DacpExceptionObjectData.LAYOUT,
            m -> sos2.call(ISOSDacInterface2.GetObjectExceptionData, exception, m));
    if (d == null) {
      return null;
    }
    return new ExceptionData(
        d.address(DacpExceptionObjectData.Message),
        d.address(DacpExceptionObjectData.InnerException),
        d.address(DacpExceptionObjectData.StackTrace),
        d.address(DacpExceptionObjectData.StackTraceString),
        d.address(DacpExceptionObjectData.RemoteStackTraceString),
        d.int32(DacpExceptionObjectData.HResult));
  }

  /** HRESULT_FROM_WIN32(ERROR_INSUFFICIENT_BUFFER): a buffer asked for too small. */
  private static final int INSUFFICIENT_BUFFER = 0x8007007a;

  /** The generation table of one heap (0: workstation), ISOSDacInterface8. */
  public Generation[] generationTable(long heap) {
    if (sos8 == null) {
      return null;
    }
    Memory needed = zeroed(4);
    int hr =
        heap == 0
            ? sos8.call(ISOSDacInterface8.GetGenerationTable, 0, Pointer.NULL, needed)
            : sos8.call(ISOSDacInterface8.GetGenerationTableSvr, heap, 0, Pointer.NULL, needed);
    int n = needed.getInt(0);
    if (n <= 0 || n > 64 || (hr < 0 && hr != INSUFFICIENT_BUFFER && hr != Hresult.S_FALSE)) {
      return null;
    }
    Memory m = DacpGenerationData.LAYOUT.allocate(n);
    hr =
        heap == 0
            ? sos8.call(ISOSDacInterface8.GetGenerationTable, n, m, needed)
            : sos8.call(ISOSDacInterface8.GetGenerationTableSvr, heap, n, m, needed);
    if (hr < 0) {
      return null;
    }
    ByteBuffer b = m.getByteBuffer(0, m.size()).order(ByteOrder.LITTLE_ENDIAN);
    Generation[] gens = new Generation[n];
    for (int i = 0; i < n; i++) {
      gens[i] = generation(DacpGenerationData.LAYOUT.view(b, DacpGenerationData.LAYOUT.size() * i));
    }
    return gens;
  }

  /** The finalization queue's fill pointers of one heap (0: workstation), ISOSDacInterface8. */
  public long[] finalizationFillPointers(long heap) {
    if (sos8 == null) {
      return null;
    }
    Memory needed = zeroed(4);
    // Asked with no room first: the DAC answers how many there are.
    if (heap == 0) {
      sos8.call(ISOSDacInterface8.GetFinalizationFillPointers, 0, Pointer.NULL, needed);
    } else {
      sos8.call(ISOSDacInterface8.GetFinalizationFillPointersSvr, heap, 0, Pointer.NULL, needed);
    }
    int n = needed.getInt(0);
    if (n <= 0 || n > 64) {
      return null;
    }
    Memory m = zeroed(8 * n);
    int filled =
        heap == 0
            ? sos8.call(ISOSDacInterface8.GetFinalizationFillPointers, n, m, needed)
            : sos8.call(ISOSDacInterface8.GetFinalizationFillPointersSvr, heap, n, m, needed);
    return filled < 0 ? null : m.getLongArray(0, n);
  }

  /** The global allocation context {@code [ptr, limit]} (ISOSDacInterface12), or null. */
  public long[] globalAllocationContext() {
    if (sos12 == null) {
      return null;
    }
    Memory ptr = zeroed(8);
    Memory limit = zeroed(8);
    if (sos12.call(ISOSDacInterface12.GetGlobalAllocationContext, ptr, limit) < 0) {
      return null;
    }
    return new long[] {ptr.getLong(0), limit.getLong(0)};
  }

  /** {@code [nonGcBase, gcBase]} of a type's statics (ISOSDacInterface14), or null. */
  public long[] staticBases(long mt) {
    if (sos14 == null) {
      return null;
    }
    Memory nonGc = zeroed(8);
    Memory gc = zeroed(8);
    if (sos14.call(ISOSDacInterface14.GetStaticBaseAddress, mt, nonGc, gc) < 0) {
      return null;
    }
    return new long[] {nonGc.getLong(0), gc.getLong(0)};
  }

  /** {@code [nonGcBase, gcBase]} of a type's statics on a thread (ISOSDacInterface14). */
  public long[] threadStaticBases(long mt, long thread) {
    if (sos14 == null) {
      return null;
    }
    Memory nonGc = zeroed(8);
    Memory gc = zeroed(8);
    if (sos14.call(ISOSDacInterface14.GetThreadStaticBaseAddress, mt, thread, nonGc, gc) < 0) {
      return null;
    }
    return new long[] {nonGc.getLong(0), gc.getLong(0)};
  }

  /** MethodTableInitializationFlags' "initialized" bit. */
  private static final int INITIALIZED = 1;

  /** Whether a type's class constructor has run (ISOSDacInterface14). */
  public boolean isInitialized(long mt) {
    if (sos14 == null) {
      return true;
    }
    Memory out = zeroed(4);
    return sos14.call(ISOSDacInterface14.GetMethodTableInitializationFlags, mt, out) >= 0
        && (out.getInt(0) & INITIALIZED) != 0;
  }

  private interface StringCall {
    int call(int count, Memory buffer, Memory needed);
  }

  // The DAC's strings: UTF-16 (2-byte WCHAR), asked first into a buffer of 512 characters, then
  // again into one of the size it said it needs.
  private static String string(StringCall call) {
    int count = 512;
    for (int attempt = 0; attempt < 3; attempt++) {
      Memory buf = zeroed(2 * count);
      Memory needed = zeroed(4);
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
