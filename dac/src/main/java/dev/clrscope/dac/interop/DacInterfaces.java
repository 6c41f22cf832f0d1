package dev.clrscope.dac.interop;

/**
 * Every COM interface clrscope calls in the runtime's DAC, and those it implements for the DAC (the
 * data target), declared once: an enum per interface whose constants are its methods in the order
 * its IDL declares them ({@code sospriv.idl}, {@code xclrdata.idl}, {@code clrdata.idl}, {@code
 * cor.h}), which is the vtable's order. A call names its method; the slot follows from the
 * declaration ({@link ComMethod#slot}). {@code DacInterfacesTest} holds these declarations against
 * the method lists kept in {@code dac-interfaces.txt} (the test's resources), written from those
 * IDL files; an interface needed next is declared here and listed there.
 */
public final class DacInterfaces {
  private DacInterfaces() {}

  /** The root of every COM interface. */
  public enum IUnknown implements ComMethod {
    QueryInterface,
    AddRef,
    Release;

    public static final ComInterface<IUnknown> ID =
        ComInterface.of(IUnknown.class, "00000000-0000-0000-c000-000000000046", null);

    @Override
    public ComInterface<IUnknown> declaredBy() {
      return ID;
    }
  }

  /** The base of the SOS enumerators ({@code sospriv.idl}). */
  public enum ISOSEnum implements ComMethod {
    Skip,
    Reset,
    GetCount;

    public static final ComInterface<ISOSEnum> ID =
        ComInterface.of(ISOSEnum.class, "286ca186-e763-4f61-9760-487d43ae4341", IUnknown.ID);

    @Override
    public ComInterface<ISOSEnum> declaredBy() {
      return ID;
    }
  }

  /** The GC handles, a batch of {@code SOSHandleData} per {@code Next}. */
  public enum ISOSHandleEnum implements ComMethod {
    Next;

    public static final ComInterface<ISOSHandleEnum> ID =
        ComInterface.of(ISOSHandleEnum.class, "3e269830-4a2b-4301-8ee2-d6805b29b2fa", ISOSEnum.ID);

    @Override
    public ComInterface<ISOSHandleEnum> declaredBy() {
      return ID;
    }
  }

  /** A thread's stack references, a batch of {@code SOSStackRefData} per {@code Next}. */
  public enum ISOSStackRefEnum implements ComMethod {
    Next,
    EnumerateErrors;

    public static final ComInterface<ISOSStackRefEnum> ID =
        ComInterface.of(
            ISOSStackRefEnum.class, "8fa642bd-9f10-4799-9aa3-512ae78c77ee", ISOSEnum.ID);

    @Override
    public ComInterface<ISOSStackRefEnum> declaredBy() {
      return ID;
    }
  }

  /** SOS's view of the runtime: threads, modules, method tables, objects, the GC heap, handles. */
  public enum ISOSDacInterface implements ComMethod {
    GetThreadStoreData,
    GetAppDomainStoreData,
    GetAppDomainList,
    GetAppDomainData,
    GetAppDomainName,
    GetDomainFromContext,
    GetAssemblyList,
    GetAssemblyData,
    GetAssemblyName,
    GetModule,
    GetModuleData,
    TraverseModuleMap,
    GetAssemblyModuleList,
    GetILForModule,
    GetThreadData,
    GetThreadFromThinlockID,
    GetStackLimits,
    GetMethodDescData,
    GetMethodDescPtrFromIP,
    GetMethodDescName,
    GetMethodDescPtrFromFrame,
    GetMethodDescFromToken,
    GetMethodDescTransparencyData,
    GetCodeHeaderData,
    GetJitManagerList,
    GetJitHelperFunctionName,
    GetJumpThunkTarget,
    GetThreadpoolData,
    GetWorkRequestData,
    GetHillClimbingLogEntry,
    GetObjectData,
    GetObjectStringData,
    GetObjectClassName,
    GetMethodTableName,
    GetMethodTableData,
    GetMethodTableSlot,
    GetMethodTableFieldData,
    GetMethodTableTransparencyData,
    GetMethodTableForEEClass,
    GetFieldDescData,
    GetFrameName,
    GetPEFileBase,
    GetPEFileName,
    GetGCHeapData,
    GetGCHeapList,
    GetGCHeapDetails,
    GetGCHeapStaticData,
    GetHeapSegmentData,
    GetOOMData,
    GetOOMStaticData,
    GetHeapAnalyzeData,
    GetHeapAnalyzeStaticData,
    GetDomainLocalModuleData,
    GetDomainLocalModuleDataFromAppDomain,
    GetDomainLocalModuleDataFromModule,
    GetThreadLocalModuleData,
    GetSyncBlockData,
    GetSyncBlockCleanupData,
    GetHandleEnum,
    GetHandleEnumForTypes,
    GetHandleEnumForGC,
    TraverseEHInfo,
    GetNestedExceptionData,
    GetStressLogAddress,
    TraverseLoaderHeap,
    GetCodeHeapList,
    TraverseVirtCallStubHeap,
    GetUsefulGlobals,
    GetClrWatsonBuckets,
    GetTLSIndex,
    GetDacModuleHandle,
    GetRCWData,
    GetRCWInterfaces,
    GetCCWData,
    GetCCWInterfaces,
    TraverseRCWCleanupList,
    GetStackReferences,
    GetRegisterName,
    GetThreadAllocData,
    GetHeapAllocData,
    GetFailedAssemblyList,
    GetPrivateBinPaths,
    GetAssemblyLocation,
    GetAppDomainConfigFile,
    GetApplicationBase,
    GetFailedAssemblyData,
    GetFailedAssemblyLocation,
    GetFailedAssemblyDisplayName;

    public static final ComInterface<ISOSDacInterface> ID =
        ComInterface.of(
            ISOSDacInterface.class, "436f00f2-b42a-4b9f-870c-e73db66ae930", IUnknown.ID);

    @Override
    public ComInterface<ISOSDacInterface> declaredBy() {
      return ID;
    }
  }

  /** Exceptions' fields. */
  public enum ISOSDacInterface2 implements ComMethod {
    GetObjectExceptionData,
    IsRCWDCOMProxy;

    public static final ComInterface<ISOSDacInterface2> ID =
        ComInterface.of(
            ISOSDacInterface2.class, "a16026ec-96f4-40ba-87fb-5575986fb7af", IUnknown.ID);

    @Override
    public ComInterface<ISOSDacInterface2> declaredBy() {
      return ID;
    }
  }

  /** Generation tables with regions (.NET 7+) and finalization fill pointers. */
  public enum ISOSDacInterface8 implements ComMethod {
    GetNumberGenerations,
    GetGenerationTable,
    GetFinalizationFillPointers,
    GetGenerationTableSvr,
    GetFinalizationFillPointersSvr,
    GetAssemblyLoadContext;

    public static final ComInterface<ISOSDacInterface8> ID =
        ComInterface.of(
            ISOSDacInterface8.class, "c12f35a9-e55c-4520-a894-b3dc5165dfce", IUnknown.ID);

    @Override
    public ComInterface<ISOSDacInterface8> declaredBy() {
      return ID;
    }
  }

  /** The global allocation context. */
  public enum ISOSDacInterface12 implements ComMethod {
    GetGlobalAllocationContext;

    public static final ComInterface<ISOSDacInterface12> ID =
        ComInterface.of(
            ISOSDacInterface12.class, "1b93bacc-8ca4-432d-943a-3e6e7ec0b0a3", IUnknown.ID);

    @Override
    public ComInterface<ISOSDacInterface12> declaredBy() {
      return ID;
    }
  }

  /** Static bases of a type (.NET 9+). */
  public enum ISOSDacInterface14 implements ComMethod {
    GetStaticBaseAddress,
    GetThreadStaticBaseAddress,
    GetMethodTableInitializationFlags;

    public static final ComInterface<ISOSDacInterface14> ID =
        ComInterface.of(
            ISOSDacInterface14.class, "9aa22aca-6dc6-4a0c-b4e0-70d2416b9837", IUnknown.ID);

    @Override
    public ComInterface<ISOSDacInterface14> declaredBy() {
      return ID;
    }
  }

  /**
   * The data target the DAC calls back ({@code clrdata.idl}); {@link DataTargetObject} implements
   * it.
   */
  public enum ICLRDataTarget implements ComMethod {
    GetMachineType,
    GetPointerSize,
    GetImageBase,
    ReadVirtual,
    WriteVirtual,
    GetTLSValue,
    SetTLSValue,
    GetCurrentThreadID,
    GetThreadContext,
    SetThreadContext,
    Request;

    public static final ComInterface<ICLRDataTarget> ID =
        ComInterface.of(ICLRDataTarget.class, "3e11ccee-d08b-43e5-af01-32717a64da03", IUnknown.ID);

    @Override
    public ComInterface<ICLRDataTarget> declaredBy() {
      return ID;
    }
  }

  /** Where the runtime is loaded; {@link DataTargetObject} implements it beside the data target. */
  public enum ICLRRuntimeLocator implements ComMethod {
    GetRuntimeBase;

    public static final ComInterface<ICLRRuntimeLocator> ID =
        ComInterface.of(
            ICLRRuntimeLocator.class, "b760bf44-9377-4597-8be7-58083bdc5146", IUnknown.ID);

    @Override
    public ComInterface<ICLRRuntimeLocator> declaredBy() {
      return ID;
    }
  }

  /** The process the DAC creates over a data target ({@code xclrdata.idl}). */
  public enum IXCLRDataProcess implements ComMethod {
    Flush,
    StartEnumTasks,
    EnumTask,
    EndEnumTasks,
    GetTaskByOSThreadID,
    GetTaskByUniqueID,
    GetFlags,
    IsSameObject,
    GetManagedObject,
    GetDesiredExecutionState,
    SetDesiredExecutionState,
    GetAddressType,
    GetRuntimeNameByAddress,
    StartEnumAppDomains,
    EnumAppDomain,
    EndEnumAppDomains,
    GetAppDomainByUniqueID,
    StartEnumAssemblies,
    EnumAssembly,
    EndEnumAssemblies,
    StartEnumModules,
    EnumModule,
    EndEnumModules,
    GetModuleByAddress,
    StartEnumMethodInstancesByAddress,
    EnumMethodInstanceByAddress,
    EndEnumMethodInstancesByAddress,
    GetDataByAddress,
    GetExceptionStateByExceptionRecord,
    TranslateExceptionRecordToNotification,
    Request,
    CreateMemoryValue,
    SetAllTypeNotifications,
    SetAllCodeNotifications,
    GetTypeNotifications,
    SetTypeNotifications,
    GetCodeNotifications,
    SetCodeNotifications,
    GetOtherNotificationFlags,
    SetOtherNotificationFlags,
    StartEnumMethodDefinitionsByAddress,
    EnumMethodDefinitionByAddress,
    EndEnumMethodDefinitionsByAddress,
    FollowStub,
    FollowStub2,
    DumpNativeImage;

    public static final ComInterface<IXCLRDataProcess> ID =
        ComInterface.of(
            IXCLRDataProcess.class, "5c552ab6-fc09-4cb3-8e36-22fa03c798b7", IUnknown.ID);

    @Override
    public ComInterface<IXCLRDataProcess> declaredBy() {
      return ID;
    }
  }

  /** A module, from {@code GetModule}; asked for its {@code IMetaDataImport}. */
  public enum IXCLRDataModule implements ComMethod {
    StartEnumAssemblies,
    EnumAssembly,
    EndEnumAssemblies,
    StartEnumTypeDefinitions,
    EnumTypeDefinition,
    EndEnumTypeDefinitions,
    StartEnumTypeInstances,
    EnumTypeInstance,
    EndEnumTypeInstances,
    StartEnumTypeDefinitionsByName,
    EnumTypeDefinitionByName,
    EndEnumTypeDefinitionsByName,
    StartEnumTypeInstancesByName,
    EnumTypeInstanceByName,
    EndEnumTypeInstancesByName,
    GetTypeDefinitionByToken,
    StartEnumMethodDefinitionsByName,
    EnumMethodDefinitionByName,
    EndEnumMethodDefinitionsByName,
    StartEnumMethodInstancesByName,
    EnumMethodInstanceByName,
    EndEnumMethodInstancesByName,
    GetMethodDefinitionByToken,
    StartEnumDataByName,
    EnumDataByName,
    EndEnumDataByName,
    GetName,
    GetFileName,
    GetFlags,
    IsSameObject,
    StartEnumExtents,
    EnumExtent,
    EndEnumExtents,
    Request,
    StartEnumAppDomains,
    EnumAppDomain,
    EndEnumAppDomains,
    GetVersionId;

    public static final ComInterface<IXCLRDataModule> ID =
        ComInterface.of(IXCLRDataModule.class, "88e32849-0a0a-4cb0-9022-7cd2e9e139e2", IUnknown.ID);

    @Override
    public ComInterface<IXCLRDataModule> declaredBy() {
      return ID;
    }
  }

  /** A method as compiled: its IL-to-native map. */
  public enum IXCLRDataMethodInstance implements ComMethod {
    GetTypeInstance,
    GetDefinition,
    GetTokenAndScope,
    GetName,
    GetFlags,
    IsSameObject,
    GetEnCVersion,
    GetNumTypeArguments,
    GetTypeArgumentByIndex,
    GetILOffsetsByAddress,
    GetAddressRangesByILOffset,
    GetILAddressMap,
    StartEnumExtents,
    EnumExtent,
    EndEnumExtents,
    Request,
    GetRepresentativeEntryAddress;

    public static final ComInterface<IXCLRDataMethodInstance> ID =
        ComInterface.of(
            IXCLRDataMethodInstance.class, "ecd73800-22ca-4b0d-ab55-e9ba7e6318a5", IUnknown.ID);

    @Override
    public ComInterface<IXCLRDataMethodInstance> declaredBy() {
      return ID;
    }
  }

  /** A managed thread. */
  public enum IXCLRDataTask implements ComMethod {
    GetProcess,
    GetCurrentAppDomain,
    GetUniqueID,
    GetFlags,
    IsSameObject,
    GetManagedObject,
    GetDesiredExecutionState,
    SetDesiredExecutionState,
    CreateStackWalk,
    GetOSThreadID,
    GetContext,
    SetContext,
    GetCurrentExceptionState,
    Request,
    GetName,
    GetLastExceptionState;

    public static final ComInterface<IXCLRDataTask> ID =
        ComInterface.of(IXCLRDataTask.class, "a5b0beea-ec62-4618-8012-a24ffc23934c", IUnknown.ID);

    @Override
    public ComInterface<IXCLRDataTask> declaredBy() {
      return ID;
    }
  }

  /** A walk of a thread's managed stack. */
  public enum IXCLRDataStackWalk implements ComMethod {
    GetContext,
    SetContext,
    Next,
    GetStackSizeSkipped,
    GetFrameType,
    GetFrame,
    Request,
    SetContext2;

    public static final ComInterface<IXCLRDataStackWalk> ID =
        ComInterface.of(
            IXCLRDataStackWalk.class, "e59d8d22-ada7-49a2-89b5-a415afcfc95f", IUnknown.ID);

    @Override
    public ComInterface<IXCLRDataStackWalk> declaredBy() {
      return ID;
    }
  }

  /** A module's metadata ({@code cor.h}): names of types and fields by token. */
  public enum IMetaDataImport implements ComMethod {
    CloseEnum,
    CountEnum,
    ResetEnum,
    EnumTypeDefs,
    EnumInterfaceImpls,
    EnumTypeRefs,
    FindTypeDefByName,
    GetScopeProps,
    GetModuleFromScope,
    GetTypeDefProps,
    GetInterfaceImplProps,
    GetTypeRefProps,
    ResolveTypeRef,
    EnumMembers,
    EnumMembersWithName,
    EnumMethods,
    EnumMethodsWithName,
    EnumFields,
    EnumFieldsWithName,
    EnumParams,
    EnumMemberRefs,
    EnumMethodImpls,
    EnumPermissionSets,
    FindMember,
    FindMethod,
    FindField,
    FindMemberRef,
    GetMethodProps,
    GetMemberRefProps,
    EnumProperties,
    EnumEvents,
    GetEventProps,
    EnumMethodSemantics,
    GetMethodSemantics,
    GetClassLayout,
    GetFieldMarshal,
    GetRVA,
    GetPermissionSetProps,
    GetSigFromToken,
    GetModuleRefProps,
    EnumModuleRefs,
    GetTypeSpecFromToken,
    GetNameFromToken,
    EnumUnresolvedMethods,
    GetUserString,
    GetPinvokeMap,
    EnumSignatures,
    EnumTypeSpecs,
    EnumUserStrings,
    GetParamForMethodIndex,
    EnumCustomAttributes,
    GetCustomAttributeProps,
    FindTypeRef,
    GetMemberProps,
    GetFieldProps,
    GetPropertyProps,
    GetParamProps,
    GetCustomAttributeByName,
    IsValidToken,
    GetNestedClassProps,
    GetNativeCallConvFromSig,
    IsGlobal;

    public static final ComInterface<IMetaDataImport> ID =
        ComInterface.of(IMetaDataImport.class, "7dac8207-d3ae-4c75-9b67-92801a497d44", IUnknown.ID);

    @Override
    public ComInterface<IMetaDataImport> declaredBy() {
      return ID;
    }
  }
}
