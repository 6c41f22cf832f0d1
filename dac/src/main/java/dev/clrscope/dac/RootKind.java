package dev.clrscope.dac;

/** What keeps an object alive, as the GC sees it. */
public enum RootKind {
  WEAK_SHORT_HANDLE(0, false, "weak short handle"),
  WEAK_LONG_HANDLE(1, false, "weak long handle"),
  STRONG_HANDLE(2, true, "strong handle"),
  PINNED_HANDLE(3, true, "pinned handle"),
  VARIABLE_HANDLE(4, true, "variable handle"),
  REF_COUNTED_HANDLE(5, true, "ref-counted handle"),
  DEPENDENT_HANDLE(6, false, "dependent handle"),
  ASYNC_PINNED_HANDLE(7, true, "async pinned handle"),
  SIZED_REF_HANDLE(8, true, "sized-ref handle"),
  WEAK_WINRT_HANDLE(9, false, "weak WinRT handle"),
  /** A local variable or register of a thread's stack frame. */
  STACK(-1, true, "stack"),
  /** An object whose finalizer is due (the f-reachable queue). */
  FINALIZER_QUEUE(-1, true, "finalization queue"),
  /** A static field. */
  STATIC_FIELD(-1, true, "static"),
  /** A thread-static field of one thread. */
  THREAD_STATIC_FIELD(-1, true, "thread static");

  private final int handleType;
  private final boolean strong;
  private final String label;

  RootKind(int handleType, boolean strong, String label) {
    this.handleType = handleType;
    this.strong = strong;
    this.label = label;
  }

  /** The kind of a handle of the runtime's type {@code HNDTYPE_*}. */
  public static RootKind ofHandleType(int type) {
    for (RootKind k : values()) {
      if (k.handleType == type) {
        return k;
      }
    }
    return STRONG_HANDLE;
  }

  /** Whether it keeps its object alive (weak and dependent handles do not, by themselves). */
  public boolean isStrong() {
    return strong;
  }

  /** {@code strong handle}, {@code stack}, {@code static}... */
  public String label() {
    return label;
  }
}
