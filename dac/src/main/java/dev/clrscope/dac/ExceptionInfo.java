package dev.clrscope.dac;

import java.util.List;

/**
 * An exception object, as SOS's {@code printexception} shows it.
 *
 * @param address the exception object
 * @param type its type's name
 * @param message its message, or null
 * @param hresult its HResult
 * @param stackTrace the frames its stack trace recorded when it was thrown (innermost first), empty
 *     if it was never thrown
 * @param inner its inner exception, or null
 */
public record ExceptionInfo(
    long address,
    String type,
    String message,
    int hresult,
    List<StackFrame> stackTrace,
    ExceptionInfo inner) {
  /** {@code 0x80131509}-style HResult. */
  public String hresultHex() {
    return String.format("0x%08x", hresult);
  }
}
