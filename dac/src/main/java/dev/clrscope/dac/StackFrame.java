package dev.clrscope.dac;

/**
 * One frame of a thread's managed stack, innermost first.
 *
 * @param ip the instruction pointer
 * @param sp the stack pointer (for a runtime frame, the Frame's address, as SOS prints it)
 * @param methodDesc the managed method's MethodDesc, or 0
 * @param method the method's name with its signature ({@code TargetApp.DumpFacts.BlockedHere()}),
 *     or null when the frame is not in managed code the runtime can name
 * @param frameName for a runtime (explicit) frame, its type ({@code InlinedCallFrame}), else null
 */
public record StackFrame(long ip, long sp, long methodDesc, String method, String frameName) {
  /** Whether this is a transition frame of the runtime rather than a managed method. */
  public boolean isRuntimeFrame() {
    return frameName != null;
  }

  /** The method's name without its parameter list, or null. */
  public String methodName() {
    if (method == null) {
      return null;
    }
    int paren = method.indexOf('(');
    return paren < 0 ? method : method.substring(0, paren);
  }

  /** How SOS's clrstack shows it: the method, or {@code [FrameName: sp]}. */
  public String display() {
    if (frameName != null) {
      return "["
          + frameName
          + ": "
          + Long.toHexString(sp)
          + "]"
          + (method != null ? " " + method : "");
    }
    return method != null ? method : "[native 0x" + Long.toHexString(ip) + "]";
  }
}
