package dev.clrscope.nettrace.events;

/**
 * The ids of the runtime's events that clrscope's analyses take, named once, after the symbols of
 * the runtime's manifest ({@link RuntimeManifest}: {@code GCStart_V2} is {@link Runtime#GC_START});
 * their display names, versions and layouts are the manifest's. Compile-time constants, so that an
 * analysis can switch on them. {@code RuntimeEventTest} holds every constant against the manifest.
 */
public final class RuntimeEvent {
  private RuntimeEvent() {}

  /** Events of {@link RuntimeEvents#RUNTIME_PROVIDER}. */
  public static final class Runtime {
    private Runtime() {}

    public static final int GC_START = 1;
    public static final int GC_END = 2;
    public static final int GC_RESTART_EE_END = 3;
    public static final int GC_HEAP_STATS = 4;
    public static final int GC_RESTART_EE_BEGIN = 7;
    public static final int GC_SUSPEND_EE_END = 8;
    public static final int GC_SUSPEND_EE_BEGIN = 9;
    public static final int GC_ALLOCATION_TICK = 10;
    public static final int BULK_TYPE = 15;
    public static final int GC_BULK_ROOT_EDGE = 16;
    public static final int GC_BULK_ROOT_CONDITIONAL_WEAK_TABLE_ELEMENT_EDGE = 17;
    public static final int GC_BULK_NODE = 18;
    public static final int GC_BULK_EDGE = 19;
    public static final int GC_TRIGGERED = 35;
    public static final int GC_BULK_ROOT_STATIC_VAR = 38;
    public static final int THREAD_POOL_WORKER_THREAD_START = 50;
    public static final int THREAD_POOL_WORKER_THREAD_STOP = 51;
    public static final int THREAD_POOL_WORKER_THREAD_ADJUSTMENT_SAMPLE = 54;
    public static final int THREAD_POOL_WORKER_THREAD_ADJUSTMENT_ADJUSTMENT = 55;
    public static final int THREAD_POOL_WORKER_THREAD_WAIT = 57;
    public static final int TYPE_LOAD_START = 73;
    public static final int TYPE_LOAD_STOP = 74;
    public static final int EXCEPTION_THROWN = 80;
    public static final int CONTENTION_START = 81;
    public static final int CONTENTION_STOP = 91;
    public static final int METHOD_LOAD_VERBOSE = 143;
    public static final int METHOD_UNLOAD_VERBOSE = 144;
    public static final int METHOD_JITTING_STARTED = 145;
    public static final int DOMAIN_MODULE_LOAD = 151;
    public static final int MODULE_LOAD = 152;
    public static final int MODULE_UNLOAD = 153;
    public static final int ASSEMBLY_LOAD = 154;
    public static final int ASSEMBLY_UNLOAD = 155;
    public static final int APP_DOMAIN_LOAD = 156;
    public static final int APP_DOMAIN_UNLOAD = 157;
    public static final int RUNTIME_INFORMATION_START = 187;
    public static final int METHOD_IL_TO_NATIVE_MAP = 190;
    public static final int GC_PER_HEAP_HISTORY = 204;
    public static final int GC_GLOBAL_HEAP_HISTORY = 205;
    public static final int EXCEPTION_CATCH_START = 250;
    public static final int ASSEMBLY_LOAD_START = 290;
    public static final int ASSEMBLY_LOAD_STOP = 291;
    public static final int WAIT_HANDLE_WAIT_START = 301;
    public static final int WAIT_HANDLE_WAIT_STOP = 302;
  }

  /**
   * Events of {@link RuntimeEvents#RUNTIME_PROVIDER} that older runtimes send and the manifest of
   * today no longer declares.
   */
  public static final class Undeclared {
    private Undeclared() {}

    /** ThreadPoolWorkerThreadRetirementStart. */
    public static final int THREAD_POOL_WORKER_THREAD_RETIREMENT_START = 52;

    /** ThreadPoolWorkerThreadRetirementStop. */
    public static final int THREAD_POOL_WORKER_THREAD_RETIREMENT_STOP = 53;
  }

  /** Events of {@link RuntimeEvents#RUNDOWN_PROVIDER}. */
  public static final class Rundown {
    private Rundown() {}

    public static final int METHOD_DC_START_VERBOSE = 143;
    public static final int METHOD_DC_END_VERBOSE = 144;
    public static final int DC_START_COMPLETE = 145;
    public static final int DC_END_COMPLETE = 146;
    public static final int DC_START_INIT = 147;
    public static final int DC_END_INIT = 148;
    public static final int METHOD_DC_START_IL_TO_NATIVE_MAP = 149;
    public static final int METHOD_DC_END_IL_TO_NATIVE_MAP = 150;
    public static final int DOMAIN_MODULE_DC_START = 151;
    public static final int DOMAIN_MODULE_DC_END = 152;
    public static final int MODULE_DC_START = 153;
    public static final int MODULE_DC_END = 154;
    public static final int ASSEMBLY_DC_START = 155;
    public static final int ASSEMBLY_DC_END = 156;
    public static final int APP_DOMAIN_DC_START = 157;
    public static final int APP_DOMAIN_DC_END = 158;
    public static final int RUNTIME_INFORMATION_DC_START = 187;
    public static final int EXECUTION_CHECKPOINT_DC_END = 300;
  }

  /** Events of the SampleProfiler provider, which the manifest does not declare. */
  public static final class SampleProfiler {
    private SampleProfiler() {}

    /** A thread's stack, sampled. */
    public static final int THREAD_SAMPLE = 0;
  }
}
