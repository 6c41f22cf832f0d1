package dev.clrscope.nettrace.events;

import dev.clrscope.nettrace.EventMetadata;
import dev.clrscope.nettrace.Guid;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimePayload.*;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Decoders for native runtime events, keyed on provider name and event id; the layout within an id
 * follows the event version (later versions append fields) and the trace's pointer size.
 */
public final class RuntimeEvents {
  /** The runtime's own provider. */
  public static final String RUNTIME_PROVIDER = "Microsoft-Windows-DotNETRuntime";

  /** GUID of {@link #RUNTIME_PROVIDER}. */
  public static final Guid RUNTIME_PROVIDER_GUID =
      Guid.parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");

  /** The provider that lists loaded methods and modules when a session stops. */
  public static final String RUNDOWN_PROVIDER = "Microsoft-Windows-DotNETRuntimeRundown";

  /** GUID of {@link #RUNDOWN_PROVIDER}. */
  public static final Guid RUNDOWN_PROVIDER_GUID =
      Guid.parse("a669021c-c450-4609-a035-5af59af4df18");

  /** EventPipe's CPU sampler. */
  public static final String SAMPLE_PROFILER_PROVIDER = "Microsoft-DotNETCore-SampleProfiler";

  /** A typed decoder: the analyses' view of an event, beside the manifest's generic one. */
  private interface Known extends Function<PayloadFieldReader, RuntimePayload> {}

  private static final Map<String, Map<Integer, Known>> KNOWN = new HashMap<>();

  /** Names of the events of providers the runtime's manifest does not declare. */
  private static final Map<String, Map<Integer, String>> UNDECLARED_NAMES =
      Map.of(
          SAMPLE_PROFILER_PROVIDER,
          Map.of(RuntimeEvent.SampleProfiler.THREAD_SAMPLE, "Thread/Sample"));

  static {
    Map<Integer, Known> rt = new HashMap<>();
    rt.put(RuntimeEvent.Runtime.GC_START, RuntimeEvents::gcStart);
    rt.put(
        RuntimeEvent.Runtime.GC_END,
        r -> new GcEnd(r.u32("Count"), r.u32("Depth"), r.u16("ClrInstanceID")));
    rt.put(RuntimeEvent.Runtime.GC_RESTART_EE_END, RuntimeEvents::clrInstance);
    rt.put(RuntimeEvent.Runtime.GC_HEAP_STATS, RuntimeEvents::heapStats);
    rt.put(RuntimeEvent.Runtime.GC_RESTART_EE_BEGIN, RuntimeEvents::clrInstance);
    rt.put(RuntimeEvent.Runtime.GC_SUSPEND_EE_END, RuntimeEvents::clrInstance);
    rt.put(
        RuntimeEvent.Runtime.GC_SUSPEND_EE_BEGIN,
        r -> new SuspendEeBegin(r.u32("Reason"), r.u32("Count"), r.u16("ClrInstanceID")));
    rt.put(RuntimeEvent.Runtime.GC_ALLOCATION_TICK, RuntimeEvents::allocationTick);
    rt.put(RuntimeEvent.Runtime.BULK_TYPE, RuntimeEvents::bulkType);
    rt.put(RuntimeEvent.Runtime.GC_BULK_ROOT_EDGE, RuntimeEvents::bulkRootEdge);
    rt.put(
        RuntimeEvent.Runtime.GC_BULK_ROOT_CONDITIONAL_WEAK_TABLE_ELEMENT_EDGE,
        RuntimeEvents::bulkRootCwt);
    rt.put(RuntimeEvent.Runtime.GC_BULK_NODE, RuntimeEvents::bulkNode);
    rt.put(RuntimeEvent.Runtime.GC_BULK_EDGE, RuntimeEvents::bulkEdge);
    rt.put(RuntimeEvent.Runtime.GC_BULK_ROOT_STATIC_VAR, RuntimeEvents::bulkRootStaticVar);
    rt.put(
        RuntimeEvent.Runtime.GC_TRIGGERED,
        r -> new GcTriggered(r.u32("Reason"), r.u16("ClrInstanceID")));
    rt.put(RuntimeEvent.Runtime.THREAD_POOL_WORKER_THREAD_START, RuntimeEvents::worker);
    rt.put(RuntimeEvent.Runtime.THREAD_POOL_WORKER_THREAD_STOP, RuntimeEvents::worker);
    rt.put(
        RuntimeEvent.Undeclared.THREAD_POOL_WORKER_THREAD_RETIREMENT_START, RuntimeEvents::worker);
    rt.put(
        RuntimeEvent.Undeclared.THREAD_POOL_WORKER_THREAD_RETIREMENT_STOP, RuntimeEvents::worker);
    rt.put(
        RuntimeEvent.Runtime.THREAD_POOL_WORKER_THREAD_ADJUSTMENT_SAMPLE,
        r -> new ThreadPoolAdjustmentSample(r.f64("Throughput"), r.u16("ClrInstanceID")));
    rt.put(
        RuntimeEvent.Runtime.THREAD_POOL_WORKER_THREAD_ADJUSTMENT_ADJUSTMENT,
        r ->
            new ThreadPoolAdjustment(
                r.f64("AverageThroughput"),
                r.u32("NewWorkerThreadCount"),
                r.u32("Reason"),
                r.u16("ClrInstanceID")));
    rt.put(RuntimeEvent.Runtime.THREAD_POOL_WORKER_THREAD_WAIT, RuntimeEvents::worker);
    rt.put(RuntimeEvent.Runtime.EXCEPTION_THROWN, RuntimeEvents::exceptionThrown);
    rt.put(
        RuntimeEvent.Runtime.CONTENTION_START,
        r ->
            new ContentionStart(
                r.u8("ContentionFlags"),
                r.u16("ClrInstanceID"),
                r.u64("LockID"),
                r.u64("AssociatedObjectID"),
                r.u64("LockOwnerThreadID")));
    rt.put(
        RuntimeEvent.Runtime.CONTENTION_STOP,
        r ->
            new ContentionStop(
                r.u8("ContentionFlags"), r.u16("ClrInstanceID"), r.f64("DurationNs")));
    rt.put(RuntimeEvent.Runtime.METHOD_LOAD_VERBOSE, RuntimeEvents::methodVerbose);
    rt.put(RuntimeEvent.Runtime.METHOD_UNLOAD_VERBOSE, RuntimeEvents::methodVerbose);
    rt.put(RuntimeEvent.Runtime.DOMAIN_MODULE_LOAD, RuntimeEvents::domainModule);
    rt.put(RuntimeEvent.Runtime.MODULE_LOAD, RuntimeEvents::module);
    rt.put(RuntimeEvent.Runtime.MODULE_UNLOAD, RuntimeEvents::module);
    rt.put(RuntimeEvent.Runtime.ASSEMBLY_LOAD, RuntimeEvents::assembly);
    rt.put(RuntimeEvent.Runtime.ASSEMBLY_UNLOAD, RuntimeEvents::assembly);
    rt.put(RuntimeEvent.Runtime.APP_DOMAIN_LOAD, RuntimeEvents::appDomain);
    rt.put(RuntimeEvent.Runtime.APP_DOMAIN_UNLOAD, RuntimeEvents::appDomain);
    rt.put(RuntimeEvent.Runtime.RUNTIME_INFORMATION_START, RuntimeEvents::runtimeInformation);
    rt.put(RuntimeEvent.Runtime.METHOD_IL_TO_NATIVE_MAP, RuntimeEvents::ilToNativeMap);
    rt.put(RuntimeEvent.Runtime.GC_PER_HEAP_HISTORY, RuntimeEvents::perHeapHistory);
    rt.put(RuntimeEvent.Runtime.GC_GLOBAL_HEAP_HISTORY, RuntimeEvents::globalHeapHistory);
    KNOWN.put(RUNTIME_PROVIDER, rt);

    Map<Integer, Known> rd = new HashMap<>();
    rd.put(RuntimeEvent.Rundown.METHOD_DC_START_VERBOSE, RuntimeEvents::methodVerbose);
    rd.put(RuntimeEvent.Rundown.METHOD_DC_END_VERBOSE, RuntimeEvents::methodVerbose);
    rd.put(RuntimeEvent.Rundown.DC_START_COMPLETE, RuntimeEvents::clrInstance);
    rd.put(RuntimeEvent.Rundown.DC_END_COMPLETE, RuntimeEvents::clrInstance);
    rd.put(RuntimeEvent.Rundown.DC_START_INIT, RuntimeEvents::clrInstance);
    rd.put(RuntimeEvent.Rundown.DC_END_INIT, RuntimeEvents::clrInstance);
    rd.put(RuntimeEvent.Rundown.METHOD_DC_START_IL_TO_NATIVE_MAP, RuntimeEvents::ilToNativeMap);
    rd.put(RuntimeEvent.Rundown.METHOD_DC_END_IL_TO_NATIVE_MAP, RuntimeEvents::ilToNativeMap);
    rd.put(RuntimeEvent.Rundown.DOMAIN_MODULE_DC_START, RuntimeEvents::domainModule);
    rd.put(RuntimeEvent.Rundown.DOMAIN_MODULE_DC_END, RuntimeEvents::domainModule);
    rd.put(RuntimeEvent.Rundown.MODULE_DC_START, RuntimeEvents::module);
    rd.put(RuntimeEvent.Rundown.MODULE_DC_END, RuntimeEvents::module);
    rd.put(RuntimeEvent.Rundown.ASSEMBLY_DC_START, RuntimeEvents::assembly);
    rd.put(RuntimeEvent.Rundown.ASSEMBLY_DC_END, RuntimeEvents::assembly);
    rd.put(RuntimeEvent.Rundown.APP_DOMAIN_DC_START, RuntimeEvents::appDomain);
    rd.put(RuntimeEvent.Rundown.APP_DOMAIN_DC_END, RuntimeEvents::appDomain);
    rd.put(RuntimeEvent.Rundown.RUNTIME_INFORMATION_DC_START, RuntimeEvents::runtimeInformation);
    rd.put(
        RuntimeEvent.Rundown.EXECUTION_CHECKPOINT_DC_END,
        r -> new ExecutionCheckpoint(r.u16("ClrInstanceID"), r.string("Name"), r.u64("Timestamp")));
    KNOWN.put(RUNDOWN_PROVIDER, rd);

    Map<Integer, Known> sp = new HashMap<>();
    sp.put(RuntimeEvent.SampleProfiler.THREAD_SAMPLE, r -> new ThreadSample(r.u32("Type")));
    KNOWN.put(SAMPLE_PROFILER_PROVIDER, sp);
  }

  private RuntimeEvents() {}

  /**
   * Decodes the payload of a native runtime event the analyses read into its typed record.
   *
   * @return empty if the event is not one of the known native events
   * @throws dev.clrscope.nettrace.NetTraceFormatException if the payload is shorter or longer than
   *     its layout allows
   */
  public static Optional<RuntimePayload> decode(TraceEvent e) {
    Known k = known(e);
    if (k == null) {
      return Optional.empty();
    }
    return Optional.of(k.apply(new PayloadFieldReader(e.payload(), e.header().pointerSize())));
  }

  /**
   * The manifest's declaration of a native runtime event (no field metadata, a provider the
   * runtime's manifest declares), for the version the event has.
   */
  public static Optional<RuntimeManifest.Event> declaration(TraceEvent e) {
    if (!e.metadata().fields().isEmpty()) {
      return Optional.empty();
    }
    return RuntimeManifest.lookup(e.providerName(), e.eventId(), e.version());
  }

  /**
   * TraceEvent's "Task/Opcode" name for a native runtime event ({@code GC/Start}), else the
   * metadata's event name (empty when the metadata has none).
   */
  public static String displayName(TraceEvent e) {
    return displayName(e.metadata());
  }

  /** {@link #displayName(TraceEvent)} of the events of metadata {@code m}. */
  public static String displayName(EventMetadata m) {
    if (m.fields().isEmpty()) {
      Optional<RuntimeManifest.Event> d =
          RuntimeManifest.lookup(m.providerName(), m.eventId(), m.version());
      if (d.isPresent()) {
        return d.get().name();
      }
      String undeclared =
          UNDECLARED_NAMES.getOrDefault(m.providerName(), Map.of()).get(m.eventId());
      if (undeclared != null) {
        return undeclared;
      }
    }
    return m.eventName();
  }

  private static Known known(TraceEvent e) {
    if (!e.metadata().fields().isEmpty()) {
      return null;
    }
    Map<Integer, Known> byId = KNOWN.get(e.providerName());
    return byId == null ? null : byId.get(e.eventId());
  }

  private static RuntimePayload clrInstance(PayloadFieldReader r) {
    return new ClrInstance(r.u16("ClrInstanceID"));
  }

  private static RuntimePayload gcStart(PayloadFieldReader r) {
    return new GcStart(
        r.u32("Count"),
        r.u32("Depth"),
        r.u32("Reason"),
        r.u32("Type"),
        r.u16("ClrInstanceID"),
        r.u64("ClientSequenceNumber"));
  }

  private static RuntimePayload heapStats(PayloadFieldReader r) {
    return new GcHeapStats(
        r.u64("GenerationSize0"),
        r.u64("TotalPromotedSize0"),
        r.u64("GenerationSize1"),
        r.u64("TotalPromotedSize1"),
        r.u64("GenerationSize2"),
        r.u64("TotalPromotedSize2"),
        r.u64("GenerationSize3"),
        r.u64("TotalPromotedSize3"),
        r.u64("FinalizationPromotedSize"),
        r.u64("FinalizationPromotedCount"),
        r.u32("PinnedObjectCount"),
        r.u32("SinkBlockCount"),
        r.u32("GCHandleCount"),
        r.u16("ClrInstanceID"),
        r.u64("GenerationSize4"),
        r.u64("TotalPromotedSize4"));
  }

  private static RuntimePayload allocationTick(PayloadFieldReader r) {
    return new GcAllocationTick(
        r.u32("AllocationAmount"),
        r.u32("AllocationKind"),
        r.u16("ClrInstanceID"),
        r.u64("AllocationAmount64"),
        r.pointer("TypeID"),
        r.string("TypeName"),
        r.u32("HeapIndex"),
        r.pointer("Address"),
        r.u64("ObjectSize"));
  }

  private static RuntimePayload bulkType(PayloadFieldReader r) {
    long count = r.u32("Count");
    int clr = r.u16("ClrInstanceID");
    // Smallest value: 8+8+4+4+1 fixed, 2 for an empty name, 4 for the parameter count.
    int n = r.count(count, 31, "BulkType values");
    List<BulkTypeValue> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      long typeId = r.u64("TypeID");
      long moduleId = r.u64("ModuleID");
      long nameId = r.u32("TypeNameID");
      long flags = r.u32("Flags");
      int element = r.u8("CorElementType");
      String name = r.string("TypeName");
      int params = r.count(r.u32("TypeParameterCount"), 8, "TypeParameters");
      List<Long> ps = new ArrayList<>(params);
      for (int k = 0; k < params; k++) {
        ps.add(r.u64("TypeParameter"));
      }
      values.add(
          new BulkTypeValue(typeId, moduleId, nameId, flags, element, name, List.copyOf(ps)));
    }
    return new BulkType(count, clr, List.copyOf(values));
  }

  private static RuntimePayload bulkNode(PayloadFieldReader r) {
    BulkNodes rows = new BulkNodes();
    rows.read(r);
    List<BulkNode> values = new ArrayList<>(rows.count);
    for (int i = 0; i < rows.count; i++) {
      values.add(new BulkNode(rows.address[i], rows.size[i], rows.typeId[i], rows.edgeCount[i]));
    }
    return new GcBulkNode(rows.index, rows.declared, rows.clrInstanceId, List.copyOf(values));
  }

  private static RuntimePayload bulkEdge(PayloadFieldReader r) {
    BulkEdges rows = new BulkEdges();
    rows.read(r);
    List<BulkEdge> values = new ArrayList<>(rows.count);
    for (int i = 0; i < rows.count; i++) {
      values.add(new BulkEdge(rows.target[i], rows.field[i]));
    }
    return new GcBulkEdge(rows.index, rows.declared, rows.clrInstanceId, List.copyOf(values));
  }

  /**
   * The rows of one GCBulkNode event (runtime provider, id 18) as columns, refilled by each {@link
   * #read}: a heap walk's millions of objects without a record each, each column read in one loop.
   */
  public static final class BulkNodes {
    private long index;
    private long declared;
    private int clrInstanceId;
    private int count;
    private long[] address = new long[0];
    private long[] size = new long[0];
    private long[] typeId = new long[0];
    private long[] edgeCount = new long[0];

    /**
     * Reads {@code e}'s rows in place of the last event's.
     *
     * @throws IllegalArgumentException if {@code e} is no GCBulkNode event
     * @throws dev.clrscope.nettrace.NetTraceFormatException if the payload is shorter than its
     *     count of rows
     */
    public void read(TraceEvent e) {
      read(reader(e, RuntimeEvent.Runtime.GC_BULK_NODE, "GCBulkNode"));
    }

    private void read(PayloadFieldReader r) {
      index = r.u32("Index");
      declared = r.u32("Count");
      clrInstanceId = r.u16("ClrInstanceID");
      int pointer = r.pointerSize();
      int row = pointer + 24;
      int n = r.count(declared, row, "GCBulkNode values");
      if (address.length < n) {
        address = new long[n];
        size = new long[n];
        typeId = new long[n];
        edgeCount = new long[n];
      }
      r.column(n, row, 0, pointer, address, "Address");
      r.column(n, row, pointer, 8, size, "Size");
      r.column(n, row, pointer + 8, 8, typeId, "TypeID");
      r.column(n, row, pointer + 16, 8, edgeCount, "EdgeCount");
      r.skip(n * row, "GCBulkNode values");
      count = n;
    }

    /** The event's Index: its number in the walk's stream of GCBulkNode events. */
    public long index() {
      return index;
    }

    /** How many rows were read. */
    public int count() {
      return count;
    }

    /** Each object's address, in {@code [0, count())}. */
    public long[] address() {
      return address;
    }

    /** Each object's size in bytes. */
    public long[] size() {
      return size;
    }

    /** Each object's type (a BulkType row's TypeID). */
    public long[] typeId() {
      return typeId;
    }

    /** How many of the walk's references (GCBulkEdge rows, in order) each object owns. */
    public long[] edgeCount() {
      return edgeCount;
    }
  }

  /**
   * The rows of one GCBulkEdge event (runtime provider, id 19) as columns; see {@link BulkNodes}.
   */
  public static final class BulkEdges {
    private long index;
    private long declared;
    private int clrInstanceId;
    private int count;
    private long[] target = new long[0];
    private long[] field = new long[0];

    /**
     * Reads {@code e}'s rows in place of the last event's.
     *
     * @throws IllegalArgumentException if {@code e} is no GCBulkEdge event
     * @throws dev.clrscope.nettrace.NetTraceFormatException if the payload is shorter than its
     *     count of rows
     */
    public void read(TraceEvent e) {
      read(reader(e, RuntimeEvent.Runtime.GC_BULK_EDGE, "GCBulkEdge"));
    }

    private void read(PayloadFieldReader r) {
      index = r.u32("Index");
      declared = r.u32("Count");
      clrInstanceId = r.u16("ClrInstanceID");
      int pointer = r.pointerSize();
      int row = pointer + 4;
      int n = r.count(declared, row, "GCBulkEdge values");
      if (target.length < n) {
        target = new long[n];
        field = new long[n];
      }
      r.column(n, row, 0, pointer, target, "Value");
      r.column(n, row, pointer, 4, field, "ReferencingFieldID");
      r.skip(n * row, "GCBulkEdge values");
      count = n;
    }

    /** The event's Index: its number in the walk's stream of GCBulkEdge events. */
    public long index() {
      return index;
    }

    /** How many rows were read. */
    public int count() {
      return count;
    }

    /** Each reference's target object; they belong to the objects by position. */
    public long[] target() {
      return target;
    }
  }

  private static PayloadFieldReader reader(TraceEvent e, int id, String name) {
    if (e.eventId() != id
        || !e.metadata().fields().isEmpty()
        || !RUNTIME_PROVIDER.equals(e.providerName())) {
      throw new IllegalArgumentException("not a " + name + " event: " + e);
    }
    return new PayloadFieldReader(e.payload(), e.header().pointerSize());
  }

  private static RuntimePayload bulkRootCwt(PayloadFieldReader r) {
    long index = r.u32("Index");
    long count = r.u32("Count");
    int clr = r.u16("ClrInstanceID");
    int n = r.count(count, 3 * r.pointerSize(), "GCBulkRootConditionalWeakTableElementEdge values");
    List<BulkRootCwt> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      values.add(
          new BulkRootCwt(
              r.pointer("GCKeyNodeID"), r.pointer("GCValueNodeID"), r.pointer("GCRootID")));
    }
    return new GcBulkRootCwt(index, count, clr, List.copyOf(values));
  }

  private static RuntimePayload bulkRootStaticVar(PayloadFieldReader r) {
    long count = r.u32("Count");
    long appDomain = r.u64("AppDomainID");
    int clr = r.u16("ClrInstanceID");
    // Smallest row: three u64, a u32 and an empty name's terminator.
    int n = r.count(count, 30, "GCBulkRootStaticVar values");
    List<BulkRootStaticVar> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      values.add(
          new BulkRootStaticVar(
              r.u64("GCRootID"),
              r.u64("ObjectID"),
              r.u64("TypeID"),
              r.u32("Flags"),
              r.string("FieldName")));
    }
    return new GcBulkRootStaticVar(count, appDomain, clr, List.copyOf(values));
  }

  private static RuntimePayload bulkRootEdge(PayloadFieldReader r) {
    long index = r.u32("Index");
    long count = r.u32("Count");
    int clr = r.u16("ClrInstanceID");
    int n = r.count(count, 2 * r.pointerSize() + 5, "GCBulkRootEdge values");
    List<BulkRootEdge> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      values.add(
          new BulkRootEdge(
              r.pointer("RootedNodeAddress"),
              r.u8("GCRootKind"),
              r.u32("GCRootFlag"),
              r.pointer("GCRootID")));
    }
    return new GcBulkRootEdge(index, count, clr, List.copyOf(values));
  }

  private static RuntimePayload perHeapHistory(PayloadFieldReader r) {
    int clr = r.u16("ClrInstanceID");
    long freeListAllocated = r.pointer("FreeListAllocated");
    long freeListRejected = r.pointer("FreeListRejected");
    long endOfSegAllocated = r.pointer("EndOfSegAllocated");
    long condemnedAllocated = r.pointer("CondemnedAllocated");
    long pinnedAllocated = r.pointer("PinnedAllocated");
    long pinnedAllocatedAdvance = r.pointer("PinnedAllocatedAdvance");
    long efficiency = r.u32("RunningFreeListEfficiency");
    long reasons0 = r.u32("CondemnReasons0");
    long reasons1 = r.u32("CondemnReasons1");
    long compact = r.u32("CompactMechanisms");
    long expand = r.u32("ExpandMechanisms");
    long heapIndex = r.u32("HeapIndex");
    long extraGen0Commit = r.pointer("ExtraGen0Commit");
    int n = r.count(r.u32("Count"), 10 * r.pointerSize(), "generation data");
    List<GenerationData> gens = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      gens.add(
          new GenerationData(
              r.pointer("SizeBefore"),
              r.pointer("FreeListBefore"),
              r.pointer("FreeObjBefore"),
              r.pointer("SizeAfter"),
              r.pointer("FreeListAfter"),
              r.pointer("FreeObjAfter"),
              r.pointer("In"),
              r.pointer("PinnedSurv"),
              r.pointer("NonePinnedSurv"),
              r.pointer("NewAllocation")));
    }
    return new GcPerHeapHistory(
        clr,
        freeListAllocated,
        freeListRejected,
        endOfSegAllocated,
        condemnedAllocated,
        pinnedAllocated,
        pinnedAllocatedAdvance,
        efficiency,
        reasons0,
        reasons1,
        compact,
        expand,
        heapIndex,
        extraGen0Commit,
        List.copyOf(gens));
  }

  private static RuntimePayload globalHeapHistory(PayloadFieldReader r) {
    long desired = r.u64("FinalYoungestDesired");
    long numHeaps = r.u32("NumHeaps");
    long condemned = r.u32("CondemnedGeneration");
    long gen0Reduction = r.u32("Gen0ReductionCount");
    long reason = r.u32("Reason");
    long mechanisms = r.u32("GlobalMechanisms");
    int clr = r.u16("ClrInstanceID");
    long pauseMode = r.u32("PauseMode");
    long pressure = r.u32("MemoryPressure");
    long reasons0 = r.u32("CondemnReasons0");
    long reasons1 = r.u32("CondemnReasons1");
    List<Long> times = new ArrayList<>();
    if (r.hasMore()) {
      int n = r.count(r.u32("Count"), 4, "Times");
      for (int i = 0; i < n; i++) {
        times.add(r.u32("Time"));
      }
    }
    return new GcGlobalHeapHistory(
        desired,
        numHeaps,
        condemned,
        gen0Reduction,
        reason,
        mechanisms,
        clr,
        pauseMode,
        pressure,
        reasons0,
        reasons1,
        List.copyOf(times));
  }

  private static RuntimePayload worker(PayloadFieldReader r) {
    return new ThreadPoolWorkerThread(
        r.u32("ActiveWorkerThreadCount"),
        r.u32("RetiredWorkerThreadCount"),
        r.u16("ClrInstanceID"));
  }

  private static RuntimePayload exceptionThrown(PayloadFieldReader r) {
    return new ExceptionThrown(
        r.string("ExceptionType"),
        r.string("ExceptionMessage"),
        r.pointer("ExceptionEIP"),
        r.u32("ExceptionHRESULT"),
        r.u16("ExceptionFlags"),
        r.u16("ClrInstanceID"));
  }

  private static RuntimePayload methodVerbose(PayloadFieldReader r) {
    return new MethodLoadVerbose(
        r.u64("MethodID"),
        r.u64("ModuleID"),
        r.u64("MethodStartAddress"),
        r.u32("MethodSize"),
        r.u32("MethodToken"),
        r.u32("MethodFlags"),
        r.string("MethodNamespace"),
        r.string("MethodName"),
        r.string("MethodSignature"),
        r.u16("ClrInstanceID"),
        r.u64("ReJITID"));
  }

  private static RuntimePayload ilToNativeMap(PayloadFieldReader r) {
    long methodId = r.u64("MethodID");
    long reJitId = r.u64("ReJITID");
    int extent = r.u8("MethodExtent");
    int n = r.count(r.u16("CountOfMapEntries"), 8, "ILOffsets and NativeOffsets");
    int[] il = new int[n];
    int[] nat = new int[n];
    for (int i = 0; i < n; i++) {
      il[i] = (int) r.u32("ILOffsets");
    }
    for (int i = 0; i < n; i++) {
      nat[i] = (int) r.u32("NativeOffsets");
    }
    return new MethodIlToNativeMap(methodId, reJitId, extent, il, nat, r.u16("ClrInstanceID"));
  }

  private static RuntimePayload module(PayloadFieldReader r) {
    return new ModuleLoad(
        r.u64("ModuleID"),
        r.u64("AssemblyID"),
        r.u32("ModuleFlags"),
        r.u32("Reserved1"),
        r.string("ModuleILPath"),
        r.string("ModuleNativePath"),
        r.u16("ClrInstanceID"),
        r.guid("ManagedPdbSignature"),
        r.u32("ManagedPdbAge"),
        r.string("ManagedPdbBuildPath"),
        r.guid("NativePdbSignature"),
        r.u32("NativePdbAge"),
        r.string("NativePdbBuildPath"));
  }

  private static RuntimePayload domainModule(PayloadFieldReader r) {
    return new DomainModuleLoad(
        r.u64("ModuleID"),
        r.u64("AssemblyID"),
        r.u64("AppDomainID"),
        r.u32("ModuleFlags"),
        r.u32("Reserved1"),
        r.string("ModuleILPath"),
        r.string("ModuleNativePath"),
        r.u16("ClrInstanceID"));
  }

  private static RuntimePayload assembly(PayloadFieldReader r) {
    return new AssemblyLoad(
        r.u64("AssemblyID"),
        r.u64("AppDomainID"),
        r.u64("BindingID"),
        r.u32("AssemblyFlags"),
        r.string("FullyQualifiedAssemblyName"),
        r.u16("ClrInstanceID"));
  }

  private static RuntimePayload appDomain(PayloadFieldReader r) {
    return new AppDomainLoad(
        r.u64("AppDomainID"),
        r.u32("AppDomainFlags"),
        r.string("AppDomainName"),
        r.u32("AppDomainIndex"),
        r.u16("ClrInstanceID"));
  }

  private static RuntimePayload runtimeInformation(PayloadFieldReader r) {
    return new RuntimeInformation(
        r.u16("ClrInstanceID"),
        r.u16("Sku"),
        r.u16("BclMajorVersion"),
        r.u16("BclMinorVersion"),
        r.u16("BclBuildNumber"),
        r.u16("BclQfeNumber"),
        r.u16("VMMajorVersion"),
        r.u16("VMMinorVersion"),
        r.u16("VMBuildNumber"),
        r.u16("VMQfeNumber"),
        r.u32("StartupFlags"),
        r.u8("StartupMode"),
        r.string("CommandLine"),
        r.guid("ComObjectGuid"),
        r.string("RuntimeDllPath"));
  }
}
