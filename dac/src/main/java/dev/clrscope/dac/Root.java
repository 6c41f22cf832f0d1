package dev.clrscope.dac;

/**
 * A root: a place outside the GC heap that holds a reference.
 *
 * @param kind what kind of place
 * @param object the object referenced
 * @param location where the reference is: the handle, the stack slot (0 when in a register), the
 *     static's slot, the finalization queue's slot
 * @param osThreadId for stack and thread-static roots, the thread; else 0
 * @param frame for stack roots, the frame that holds it (may be null when the DAC cannot say)
 * @param field for static and thread-static roots, the field
 * @param declaringType for static and thread-static roots, the type that declares the field
 * @param secondary for dependent handles, the dependent object; else 0
 * @param interior whether the reference may point inside the object
 * @param pinned whether the reference pins the object
 * @param refCount for ref-counted handles, the count
 */
public record Root(
    RootKind kind,
    long object,
    long location,
    int osThreadId,
    StackFrame frame,
    ClrField field,
    String declaringType,
    long secondary,
    boolean interior,
    boolean pinned,
    int refCount) {
  /**
   * Where it is, for a listing: {@code static TargetApp.DumpFacts.Items}, {@code thread 1234
   * TargetApp.DumpFacts.BlockedHere()}, {@code strong handle 0x7f...}.
   */
  public String describe() {
    return switch (kind) {
      case STATIC_FIELD -> "static " + declaringType + "." + field.name();
      case THREAD_STATIC_FIELD ->
          "thread static " + declaringType + "." + field.name() + " (thread " + osThreadId + ")";
      case STACK ->
          "thread "
              + osThreadId
              + (frame == null ? "" : " " + frame.display())
              + (location == 0 ? " (register)" : " (slot 0x" + Long.toHexString(location) + ")");
      case FINALIZER_QUEUE -> "finalization queue (slot 0x" + Long.toHexString(location) + ")";
      default -> kind.label() + " 0x" + Long.toHexString(location);
    };
  }
}
