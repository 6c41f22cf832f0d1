package dev.clrscope.dac.interop;

import static dev.clrscope.dac.interop.CType.ADDRESS;
import static dev.clrscope.dac.interop.CType.BOOL;
import static dev.clrscope.dac.interop.CType.BYTE;
import static dev.clrscope.dac.interop.CType.INT32;
import static dev.clrscope.dac.interop.CType.M128A;
import static dev.clrscope.dac.interop.CType.UINT16;
import static dev.clrscope.dac.interop.CType.UINT32;
import static dev.clrscope.dac.interop.CType.UINT64;

/**
 * The structures the DAC fills (and the CONTEXT the data target hands it), declared once: an enum
 * per structure whose constants are its fields in the header's order ({@code dacprivate.h}, {@code
 * sospriv.idl}, the PAL's AMD64 {@code CONTEXT}), each with its C type. {@link StructLayout} places
 * them as a C compiler does and checks the total against the size the header asserts; {@link
 * Struct} reads them by name. {@code DacStructsTest} holds every offset against the list kept in
 * {@code dac-structs.txt} (the test's resources).
 */
// Each enum holds its fields' CType, an immutable record the checker cannot see as immutable.
@SuppressWarnings("ImmutableEnumChecker")
public final class DacStructs {
  private DacStructs() {}

  /** The runtime's thread list ({@code GetThreadStoreData}). */
  public enum DacpThreadStoreData implements StructField {
    threadCount(INT32),
    unstartedThreadCount(INT32),
    backgroundThreadCount(INT32),
    pendingThreadCount(INT32),
    deadThreadCount(INT32),
    firstThread(ADDRESS),
    finalizerThread(ADDRESS),
    gcThread(ADDRESS),
    fHostConfig(UINT32);

    public static final StructLayout<DacpThreadStoreData> LAYOUT =
        StructLayout.of(DacpThreadStoreData.class, 56);

    private final CType type;

    DacpThreadStoreData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** The app domains ({@code GetAppDomainStoreData}). */
  public enum DacpAppDomainStoreData implements StructField {
    sharedDomain(ADDRESS),
    systemDomain(ADDRESS),
    DomainCount(INT32);

    public static final StructLayout<DacpAppDomainStoreData> LAYOUT =
        StructLayout.of(DacpAppDomainStoreData.class, 24);

    private final CType type;

    DacpAppDomainStoreData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** A module ({@code GetModuleData}). */
  public enum DacpModuleData implements StructField {
    Address(ADDRESS),
    PEAssembly(ADDRESS),
    ilBase(ADDRESS),
    metadataStart(ADDRESS),
    metadataSize(UINT64),
    Assembly(ADDRESS),
    bIsReflection(BOOL),
    bIsPEFile(BOOL),
    dwBaseClassIndex(UINT64),
    dwModuleID(UINT64),
    dwTransientFlags(UINT32),
    TypeDefToMethodTableMap(ADDRESS),
    TypeRefToMethodTableMap(ADDRESS),
    MethodDefToDescMap(ADDRESS),
    FieldDefToDescMap(ADDRESS),
    MemberRefToDescMap(ADDRESS),
    FileReferencesMap(ADDRESS),
    ManifestModuleReferencesMap(ADDRESS),
    LoaderAllocator(ADDRESS),
    ThunkHeap(ADDRESS),
    dwModuleIndex(UINT64);

    public static final StructLayout<DacpModuleData> LAYOUT =
        StructLayout.of(DacpModuleData.class, 160);

    private final CType type;

    DacpModuleData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** A managed thread ({@code GetThreadData}). */
  public enum DacpThreadData implements StructField {
    corThreadId(UINT32),
    osThreadId(UINT32),
    state(INT32),
    preemptiveGCDisabled(UINT32),
    allocContextPtr(ADDRESS),
    allocContextLimit(ADDRESS),
    context(ADDRESS),
    domain(ADDRESS),
    pFrame(ADDRESS),
    lockCount(UINT32),
    firstNestedException(ADDRESS),
    teb(ADDRESS),
    fiberData(ADDRESS),
    lastThrownObjectHandle(ADDRESS),
    nextThread(ADDRESS);

    public static final StructLayout<DacpThreadData> LAYOUT =
        StructLayout.of(DacpThreadData.class, 104);

    private final CType type;

    DacpThreadData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** A method's ReJIT version, inside {@link DacpMethodDescData}. */
  public enum DacpReJitData implements StructField {
    rejitID(ADDRESS),
    flags(INT32),
    NativeCodeAddr(ADDRESS);

    public static final StructLayout<DacpReJitData> LAYOUT =
        StructLayout.of(DacpReJitData.class, 24);

    private final CType type;

    DacpReJitData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** A method ({@code GetMethodDescData}). */
  public enum DacpMethodDescData implements StructField {
    bHasNativeCode(BOOL),
    bIsDynamic(BOOL),
    wSlotNumber(UINT16),
    NativeCodeAddr(ADDRESS),
    AddressOfNativeCodeSlot(ADDRESS),
    MethodDescPtr(ADDRESS),
    MethodTablePtr(ADDRESS),
    ModulePtr(ADDRESS),
    MDToken(UINT32),
    GCInfo(ADDRESS),
    GCStressCodeCopy(ADDRESS),
    managedDynamicMethodObject(ADDRESS),
    requestedIP(ADDRESS),
    rejitDataCurrent(CType.of(DacpReJitData.LAYOUT)),
    rejitDataRequested(CType.of(DacpReJitData.LAYOUT)),
    cJittedRejitVersions(UINT32);

    public static final StructLayout<DacpMethodDescData> LAYOUT =
        StructLayout.of(DacpMethodDescData.class, 152);

    private final CType type;

    DacpMethodDescData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** The code holding an address ({@code GetCodeHeaderData}). */
  public enum DacpCodeHeaderData implements StructField {
    GCInfo(ADDRESS),
    JITType(INT32),
    MethodDescPtr(ADDRESS),
    MethodStart(ADDRESS),
    MethodSize(UINT32),
    ColdRegionStart(ADDRESS),
    ColdRegionSize(UINT32),
    HotRegionSize(UINT32);

    public static final StructLayout<DacpCodeHeaderData> LAYOUT =
        StructLayout.of(DacpCodeHeaderData.class, 56);

    private final CType type;

    DacpCodeHeaderData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** An object ({@code GetObjectData}). */
  public enum DacpObjectData implements StructField {
    MethodTable(ADDRESS),
    ObjectType(INT32),
    Size(UINT64),
    ElementTypeHandle(ADDRESS),
    ElementType(INT32),
    dwRank(UINT32),
    dwNumComponents(UINT64),
    dwComponentSize(UINT64),
    ArrayDataPtr(ADDRESS),
    ArrayBoundsPtr(ADDRESS),
    ArrayLowerBoundsPtr(ADDRESS),
    RCW(ADDRESS),
    CCW(ADDRESS);

    public static final StructLayout<DacpObjectData> LAYOUT =
        StructLayout.of(DacpObjectData.class, 96);

    private final CType type;

    DacpObjectData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** A type by its method table ({@code GetMethodTableData}). */
  public enum DacpMethodTableData implements StructField {
    bIsFree(BOOL),
    Module(ADDRESS),
    Class(ADDRESS),
    ParentMethodTable(ADDRESS),
    wNumInterfaces(UINT16),
    wNumMethods(UINT16),
    wNumVtableSlots(UINT16),
    wNumVirtuals(UINT16),
    BaseSize(UINT32),
    ComponentSize(UINT32),
    cl(UINT32),
    dwAttrClass(UINT32),
    bIsShared(BOOL),
    bIsDynamic(BOOL),
    bContainsPointers(BOOL);

    public static final StructLayout<DacpMethodTableData> LAYOUT =
        StructLayout.of(DacpMethodTableData.class, 72);

    private final CType type;

    DacpMethodTableData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** A type's field counts and first field ({@code GetMethodTableFieldData}). */
  public enum DacpMethodTableFieldData implements StructField {
    wNumInstanceFields(UINT16),
    wNumStaticFields(UINT16),
    wNumThreadStaticFields(UINT16),
    FirstField(ADDRESS),
    wContextStaticOffset(UINT16),
    wContextStaticsSize(UINT16);

    public static final StructLayout<DacpMethodTableFieldData> LAYOUT =
        StructLayout.of(DacpMethodTableFieldData.class, 24);

    private final CType type;

    DacpMethodTableFieldData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** A field ({@code GetFieldDescData}). */
  public enum DacpFieldDescData implements StructField {
    Type(INT32),
    sigType(INT32),
    MTOfType(ADDRESS),
    ModuleOfType(ADDRESS),
    TokenOfType(UINT32),
    mb(UINT32),
    MTOfEnclosingClass(ADDRESS),
    dwOffset(UINT32),
    bIsThreadLocal(BOOL),
    bIsContextLocal(BOOL),
    bIsStatic(BOOL),
    NextField(ADDRESS);

    public static final StructLayout<DacpFieldDescData> LAYOUT =
        StructLayout.of(DacpFieldDescData.class, 64);

    private final CType type;

    DacpFieldDescData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** The GC's kind and heap count ({@code GetGCHeapData}). */
  public enum DacpGcHeapData implements StructField {
    bServerMode(BOOL),
    bGcStructuresValid(BOOL),
    HeapCount(UINT32),
    g_max_generation(UINT32);

    public static final StructLayout<DacpGcHeapData> LAYOUT =
        StructLayout.of(DacpGcHeapData.class, 16);

    private final CType type;

    DacpGcHeapData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** A generation: where it starts and its allocation context. */
  public enum DacpGenerationData implements StructField {
    start_segment(ADDRESS),
    allocation_start(ADDRESS),
    allocContextPtr(ADDRESS),
    allocContextLimit(ADDRESS);

    public static final StructLayout<DacpGenerationData> LAYOUT =
        StructLayout.of(DacpGenerationData.class, 32);

    private final CType type;

    DacpGenerationData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** One GC heap ({@code GetGCHeapDetails}, {@code GetGCHeapStaticData}). */
  public enum DacpGcHeapDetails implements StructField {
    heapAddr(ADDRESS),
    alloc_allocated(ADDRESS),
    mark_array(ADDRESS),
    current_c_gc_state(ADDRESS),
    next_sweep_obj(ADDRESS),
    saved_sweep_ephemeral_seg(ADDRESS),
    saved_sweep_ephemeral_start(ADDRESS),
    background_saved_lowest_address(ADDRESS),
    background_saved_highest_address(ADDRESS),
    generation_table(CType.of(DacpGenerationData.LAYOUT).array(4)),
    ephemeral_heap_segment(ADDRESS),
    finalization_fill_pointers(ADDRESS.array(7)),
    lowest_address(ADDRESS),
    highest_address(ADDRESS),
    card_table(ADDRESS);

    public static final StructLayout<DacpGcHeapDetails> LAYOUT =
        StructLayout.of(DacpGcHeapDetails.class, 288);

    private final CType type;

    DacpGcHeapDetails(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** A heap segment or region ({@code GetHeapSegmentData}). */
  public enum DacpHeapSegmentData implements StructField {
    segmentAddr(ADDRESS),
    allocated(ADDRESS),
    committed(ADDRESS),
    reserved(ADDRESS),
    used(ADDRESS),
    mem(ADDRESS),
    next(ADDRESS),
    gc_heap(ADDRESS),
    highAllocMark(ADDRESS),
    flags(UINT64),
    background_allocated(ADDRESS);

    public static final StructLayout<DacpHeapSegmentData> LAYOUT =
        StructLayout.of(DacpHeapSegmentData.class, 88);

    private final CType type;

    DacpHeapSegmentData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** A sync block ({@code GetSyncBlockData}). */
  public enum DacpSyncBlockData implements StructField {
    Object(ADDRESS),
    bFree(BOOL),
    SyncBlockPointer(ADDRESS),
    COMFlags(UINT32),
    MonitorHeld(UINT32),
    Recursion(UINT32),
    HoldingThread(ADDRESS),
    AdditionalThreadCount(UINT32),
    appDomainPtr(ADDRESS),
    SyncBlockCount(UINT32);

    public static final StructLayout<DacpSyncBlockData> LAYOUT =
        StructLayout.of(DacpSyncBlockData.class, 72);

    private final CType type;

    DacpSyncBlockData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** The runtime's common method tables ({@code GetUsefulGlobals}). */
  public enum DacpUsefulGlobalsData implements StructField {
    ArrayMethodTable(ADDRESS),
    StringMethodTable(ADDRESS),
    ObjectMethodTable(ADDRESS),
    ExceptionMethodTable(ADDRESS),
    FreeMethodTable(ADDRESS);

    public static final StructLayout<DacpUsefulGlobalsData> LAYOUT =
        StructLayout.of(DacpUsefulGlobalsData.class, 40);

    private final CType type;

    DacpUsefulGlobalsData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /**
   * A module's statics before .NET 9 ({@code GetDomainLocalModuleDataFromModule}): the flags of its
   * types' class constructors, the table of its dynamic (generic) statics and the bases of its GC
   * and non-GC statics.
   */
  public enum DacpDomainLocalModuleData implements StructField {
    appDomainAddr(ADDRESS),
    ModuleID(UINT64),
    pClassData(ADDRESS),
    pDynamicClassTable(ADDRESS),
    pGCStaticDataStart(ADDRESS),
    pNonGCStaticDataStart(ADDRESS);

    public static final StructLayout<DacpDomainLocalModuleData> LAYOUT =
        StructLayout.of(DacpDomainLocalModuleData.class, 48);

    private final CType type;

    DacpDomainLocalModuleData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /**
   * A module's thread statics on one thread before .NET 9 ({@code GetThreadLocalModuleData}): the
   * flags of its types on that thread and the bases of their GC and non-GC thread statics.
   */
  public enum DacpThreadLocalModuleData implements StructField {
    threadAddr(ADDRESS),
    ModuleIndex(UINT64),
    pClassData(ADDRESS),
    pDynamicClassTable(ADDRESS),
    pGCStaticDataStart(ADDRESS),
    pNonGCStaticDataStart(ADDRESS);

    public static final StructLayout<DacpThreadLocalModuleData> LAYOUT =
        StructLayout.of(DacpThreadLocalModuleData.class, 48);

    private final CType type;

    DacpThreadLocalModuleData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** An exception's fields ({@code ISOSDacInterface2.GetObjectExceptionData}). */
  public enum DacpExceptionObjectData implements StructField {
    Message(ADDRESS),
    InnerException(ADDRESS),
    StackTrace(ADDRESS),
    WatsonBuckets(ADDRESS),
    StackTraceString(ADDRESS),
    RemoteStackTraceString(ADDRESS),
    HResult(INT32),
    XCode(INT32);

    public static final StructLayout<DacpExceptionObjectData> LAYOUT =
        StructLayout.of(DacpExceptionObjectData.class, 56);

    private final CType type;

    DacpExceptionObjectData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** A GC handle ({@code ISOSHandleEnum.Next}, {@code sospriv.idl}). */
  public enum SOSHandleData implements StructField {
    AppDomain(ADDRESS),
    Handle(ADDRESS),
    Secondary(ADDRESS),
    Type(UINT32),
    StrongReference(BOOL),
    RefCount(UINT32),
    JupiterRefCount(UINT32),
    IsPegged(BOOL);

    public static final StructLayout<SOSHandleData> LAYOUT =
        StructLayout.of(SOSHandleData.class, 48);

    private final CType type;

    SOSHandleData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /** A reference on a thread's stack ({@code ISOSStackRefEnum.Next}, {@code sospriv.idl}). */
  public enum SOSStackRefData implements StructField {
    HasRegisterInformation(BOOL),
    Register(INT32),
    Offset(INT32),
    Address(ADDRESS),
    Object(ADDRESS),
    Flags(UINT32),
    SourceType(INT32),
    Source(ADDRESS),
    StackPointer(ADDRESS);

    public static final StructLayout<SOSStackRefData> LAYOUT =
        StructLayout.of(SOSStackRefData.class, 56);

    private final CType type;

    SOSStackRefData(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }

  /**
   * A thread's registers as the DAC reads them on every platform: Windows' AMD64 {@code CONTEXT}
   * (the PAL's, up to {@code LastExceptionFromRip}: 1,232 bytes, aligned to 16).
   */
  public enum CONTEXT implements StructField {
    P1Home(UINT64),
    P2Home(UINT64),
    P3Home(UINT64),
    P4Home(UINT64),
    P5Home(UINT64),
    P6Home(UINT64),
    ContextFlags(UINT32),
    MxCsr(UINT32),
    SegCs(UINT16),
    SegDs(UINT16),
    SegEs(UINT16),
    SegFs(UINT16),
    SegGs(UINT16),
    SegSs(UINT16),
    EFlags(UINT32),
    Dr0(UINT64),
    Dr1(UINT64),
    Dr2(UINT64),
    Dr3(UINT64),
    Dr6(UINT64),
    Dr7(UINT64),
    Rax(UINT64),
    Rcx(UINT64),
    Rdx(UINT64),
    Rbx(UINT64),
    Rsp(UINT64),
    Rbp(UINT64),
    Rsi(UINT64),
    Rdi(UINT64),
    R8(UINT64),
    R9(UINT64),
    R10(UINT64),
    R11(UINT64),
    R12(UINT64),
    R13(UINT64),
    R14(UINT64),
    R15(UINT64),
    Rip(UINT64),
    FltSave(BYTE.array(512).alignedTo(16)),
    VectorRegister(M128A.array(26)),
    VectorControl(UINT64),
    DebugControl(UINT64),
    LastBranchToRip(UINT64),
    LastBranchFromRip(UINT64),
    LastExceptionToRip(UINT64),
    LastExceptionFromRip(UINT64);

    public static final StructLayout<CONTEXT> LAYOUT =
        StructLayout.aligned(CONTEXT.class, 16, 1232);

    /** CONTEXT_AMD64: the flags' architecture bit. */
    public static final int AMD64 = 0x100000;

    /** The control registers (RIP, RSP, segment CS and SS, flags). */
    public static final int CONTROL = AMD64 | 0x1;

    /** The integer registers. */
    public static final int INTEGER = AMD64 | 0x2;

    /** The segment registers. */
    public static final int SEGMENTS = AMD64 | 0x4;

    /** Every register: CONTROL, INTEGER, SEGMENTS, FLOATING_POINT and DEBUG_REGISTERS. */
    public static final int ALL = AMD64 | 0x1f;

    private final CType type;

    CONTEXT(CType type) {
      this.type = type;
    }

    @Override
    public CType type() {
      return type;
    }
  }
}
