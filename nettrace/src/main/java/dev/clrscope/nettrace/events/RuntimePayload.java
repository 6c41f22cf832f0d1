package dev.clrscope.nettrace.events;

import dev.clrscope.nettrace.Guid;
import java.util.List;

/**
 * Typed payloads of native runtime events (providers Microsoft-Windows-DotNETRuntime,
 * -DotNETRuntimeRundown and Microsoft-DotNETCore-SampleProfiler), whose metadata carries no field
 * descriptions. Component names follow the runtime manifest's field names in camel case; integers
 * declared unsigned in the manifest are widened (u32 to long) and u64/pointers are raw longs. A
 * field added in a later event version reads as 0/empty in older versions.
 */
public sealed interface RuntimePayload {

  /**
   * Events whose only field is the runtime instance (SuspendEEEnd, RestartEE*, DC*Init/Complete).
   */
  record ClrInstance(int clrInstanceId) implements RuntimePayload {}

  /** GCStart (1), V1-V2. Reason 1 = Induced; type 0 NonConcurrent, 1 Background, 2 Foreground. */
  record GcStart(
      long count, long depth, long reason, long type, int clrInstanceId, long clientSequenceNumber)
      implements RuntimePayload {}

  /** GCEnd (2), V1. */
  record GcEnd(long count, long depth, int clrInstanceId) implements RuntimePayload {}

  /** GCHeapStats (4), V1-V2; generation 3 is the LOH, 4 the POH (V2). */
  record GcHeapStats(
      long generationSize0,
      long totalPromotedSize0,
      long generationSize1,
      long totalPromotedSize1,
      long generationSize2,
      long totalPromotedSize2,
      long generationSize3,
      long totalPromotedSize3,
      long finalizationPromotedSize,
      long finalizationPromotedCount,
      long pinnedObjectCount,
      long sinkBlockCount,
      long gcHandleCount,
      int clrInstanceId,
      long generationSize4,
      long totalPromotedSize4)
      implements RuntimePayload {}

  /** SuspendEEBegin (9), V1. */
  record SuspendEeBegin(long reason, long count, int clrInstanceId) implements RuntimePayload {}

  /** GCTriggered (35). */
  record GcTriggered(long reason, int clrInstanceId) implements RuntimePayload {}

  /** GCAllocationTick (10), V2-V4. */
  record GcAllocationTick(
      long allocationAmount,
      long allocationKind,
      int clrInstanceId,
      long allocationAmount64,
      long typeId,
      String typeName,
      long heapIndex,
      long address,
      long objectSize)
      implements RuntimePayload {}

  /** One generation of {@link GcPerHeapHistory}. */
  record GenerationData(
      long sizeBefore,
      long freeListBefore,
      long freeObjBefore,
      long sizeAfter,
      long freeListAfter,
      long freeObjAfter,
      long in,
      long pinnedSurv,
      long nonePinnedSurv,
      long newAllocation) {}

  /** GCPerHeapHistory (204), V3. */
  record GcPerHeapHistory(
      int clrInstanceId,
      long freeListAllocated,
      long freeListRejected,
      long endOfSegAllocated,
      long condemnedAllocated,
      long pinnedAllocated,
      long pinnedAllocatedAdvance,
      long runningFreeListEfficiency,
      long condemnReasons0,
      long condemnReasons1,
      long compactMechanisms,
      long expandMechanisms,
      long heapIndex,
      long extraGen0Commit,
      List<GenerationData> generations)
      implements RuntimePayload {}

  /** GCGlobalHeapHistory (205), V2-V4. */
  record GcGlobalHeapHistory(
      long finalYoungestDesired,
      long numHeaps,
      long condemnedGeneration,
      long gen0ReductionCount,
      long reason,
      long globalMechanisms,
      int clrInstanceId,
      long pauseMode,
      long memoryPressure,
      long condemnReasons0,
      long condemnReasons1,
      List<Long> budgetTimes)
      implements RuntimePayload {}

  /** One type of {@link BulkType}. Flags: Delegate 1, Finalizable 2, RCW 4, Array 8. */
  record BulkTypeValue(
      long typeId,
      long moduleId,
      long typeNameId,
      long flags,
      int corElementType,
      String name,
      List<Long> typeParameters) {}

  /** BulkType (15). */
  record BulkType(long count, int clrInstanceId, List<BulkTypeValue> values)
      implements RuntimePayload {}

  /** One object of {@link GcBulkNode}. */
  record BulkNode(long address, long size, long typeId, long edgeCount) {}

  /** GCBulkNode (18). */
  record GcBulkNode(long index, long count, int clrInstanceId, List<BulkNode> values)
      implements RuntimePayload {}

  /** One reference of {@link GcBulkEdge}; belongs to nodes by position. */
  record BulkEdge(long value, long referencingFieldId) {}

  /** GCBulkEdge (19). */
  record GcBulkEdge(long index, long count, int clrInstanceId, List<BulkEdge> values)
      implements RuntimePayload {}

  /**
   * One root of {@link GcBulkRootEdge}. Kind: Stack 0, Finalizer 1, Handle 2, Older 3, SizedRef 4,
   * Overflow 5. Flags: Pinning 1, WeakRef 2, Interior 4, RefCounted 8.
   */
  record BulkRootEdge(long rootedNodeAddress, int gcRootKind, long gcRootFlag, long gcRootId) {}

  /** GCBulkRootEdge (16). */
  record GcBulkRootEdge(long index, long count, int clrInstanceId, List<BulkRootEdge> values)
      implements RuntimePayload {}

  /** One dependent handle of {@link GcBulkRootCwt}: its key keeps its value alive. */
  record BulkRootCwt(long gcKeyNodeId, long gcValueNodeId, long gcRootId) {}

  /** GCBulkRootConditionalWeakTableElementEdge (17): dependent handles. */
  record GcBulkRootCwt(long index, long count, int clrInstanceId, List<BulkRootCwt> values)
      implements RuntimePayload {}

  /** One static field of {@link GcBulkRootStaticVar}: the object it holds, the field's name. */
  record BulkRootStaticVar(
      long gcRootId, long objectId, long typeId, long flags, String fieldName) {}

  /** GCBulkRootStaticVar (38): static fields, roots of their own. */
  record GcBulkRootStaticVar(
      long count, long appDomainId, int clrInstanceId, List<BulkRootStaticVar> values)
      implements RuntimePayload {}

  /** MethodLoadVerbose/UnloadVerbose (143/144) and rundown MethodDCStart/EndVerbose (143/144). */
  record MethodLoadVerbose(
      long methodId,
      long moduleId,
      long methodStartAddress,
      long methodSize,
      long methodToken,
      long methodFlags,
      String methodNamespace,
      String methodName,
      String methodSignature,
      int clrInstanceId,
      long reJitId)
      implements RuntimePayload {}

  /**
   * MethodILToNativeMap (190) and rundown MethodDCStart/EndILToNativeMap (149/150): where the IL of
   * one code version of a method went in its native code, pairs sorted as the runtime gives them.
   * An IL offset of -1 (no mapping), -2 (prolog) or -3 (epilog) marks code of no IL instruction.
   *
   * @param methodExtent 0 for the method's (hot) code, 1 for its cold part
   */
  @SuppressWarnings("ArrayRecordComponent") // the decoded arrays, handed over once, never mutated
  record MethodIlToNativeMap(
      long methodId,
      long reJitId,
      int methodExtent,
      int[] ilOffsets,
      int[] nativeOffsets,
      int clrInstanceId)
      implements RuntimePayload {}

  /** ModuleLoad/Unload (152/153) and rundown ModuleDCStart/End (153/154), V2. */
  record ModuleLoad(
      long moduleId,
      long assemblyId,
      long moduleFlags,
      long reserved1,
      String moduleIlPath,
      String moduleNativePath,
      int clrInstanceId,
      Guid managedPdbSignature,
      long managedPdbAge,
      String managedPdbBuildPath,
      Guid nativePdbSignature,
      long nativePdbAge,
      String nativePdbBuildPath)
      implements RuntimePayload {}

  /** DomainModuleLoad (151) and rundown DomainModuleDCStart/End (151/152). */
  record DomainModuleLoad(
      long moduleId,
      long assemblyId,
      long appDomainId,
      long moduleFlags,
      long reserved1,
      String moduleIlPath,
      String moduleNativePath,
      int clrInstanceId)
      implements RuntimePayload {}

  /** AssemblyLoad/Unload (154/155) and rundown AssemblyDCStart/End (155/156). */
  record AssemblyLoad(
      long assemblyId,
      long appDomainId,
      long bindingId,
      long assemblyFlags,
      String fullyQualifiedAssemblyName,
      int clrInstanceId)
      implements RuntimePayload {}

  /** AppDomainLoad/Unload (156/157) and rundown AppDomainDCStart/End (157/158). */
  record AppDomainLoad(
      long appDomainId,
      long appDomainFlags,
      String appDomainName,
      long appDomainIndex,
      int clrInstanceId)
      implements RuntimePayload {}

  /** RuntimeInformation (187), in both providers. */
  record RuntimeInformation(
      int clrInstanceId,
      int sku,
      int bclMajorVersion,
      int bclMinorVersion,
      int bclBuildNumber,
      int bclQfeNumber,
      int vmMajorVersion,
      int vmMinorVersion,
      int vmBuildNumber,
      int vmQfeNumber,
      long startupFlags,
      int startupMode,
      String commandLine,
      Guid comObjectGuid,
      String runtimeDllPath)
      implements RuntimePayload {}

  /** Rundown ExecutionCheckpointDCEnd (300). */
  record ExecutionCheckpoint(int clrInstanceId, String name, long timestamp)
      implements RuntimePayload {}

  /** ExceptionThrown (80), V1. */
  record ExceptionThrown(
      String exceptionType,
      String exceptionMessage,
      long exceptionEip,
      long exceptionHResult,
      int exceptionFlags,
      int clrInstanceId)
      implements RuntimePayload {}

  /** ContentionStart (81), V1-V2. */
  record ContentionStart(
      int contentionFlags,
      int clrInstanceId,
      long lockId,
      long associatedObjectId,
      long lockOwnerThreadId)
      implements RuntimePayload {}

  /** ContentionStop (91), V0-V1. */
  record ContentionStop(int contentionFlags, int clrInstanceId, double durationNs)
      implements RuntimePayload {}

  /** Thread pool worker thread start/stop/retire/unretire/wait (50-53, 57). */
  record ThreadPoolWorkerThread(
      long activeWorkerThreadCount, long retiredWorkerThreadCount, int clrInstanceId)
      implements RuntimePayload {}

  /** ThreadPoolWorkerThreadAdjustmentSample (54). */
  record ThreadPoolAdjustmentSample(double throughput, int clrInstanceId)
      implements RuntimePayload {}

  /** ThreadPoolWorkerThreadAdjustmentAdjustment (55). */
  record ThreadPoolAdjustment(
      double averageThroughput, long newWorkerThreadCount, long reason, int clrInstanceId)
      implements RuntimePayload {}

  /** SampleProfiler ThreadSample (0): 1 = managed code, 2 = external (native) code. */
  record ThreadSample(long type) implements RuntimePayload {}
}
