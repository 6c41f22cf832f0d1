package dev.clrscope.monitor.startup;

import java.time.Instant;

/**
 * One item of a process's start: an assembly load, a method compiled, a type loaded, a GC, or the
 * moment its {@code Main} was reached.
 *
 * @param kind {@code assembly}, {@code jit}, {@code type}, {@code gc} or {@code main}
 * @param time when it started (wall clock)
 * @param offsetNanos when it started, from the start of the session (clrscope resumes a runtime
 *     waiting at startup right after the session starts)
 * @param durationNanos how long it took (start to stop on its thread), or {@code null} for {@code
 *     main}
 * @param threadId the OS thread it ran on
 * @param name the assembly's simple name, the method's {@code Namespace.Name}, the type's name,
 *     {@code gen N} for a GC, or {@code Main}'s method
 * @param detail the assembly's path (or {@code cached}, {@code failed}), the method's signature,
 *     the type's load level, the GC's reason
 */
public record StartupRecord(
    String kind,
    Instant time,
    long offsetNanos,
    Long durationNanos,
    long threadId,
    String name,
    String detail) {

  /** An assembly load (AssemblyLoadStart/Stop). */
  public static final String ASSEMBLY = "assembly";

  /** A method compiled (MethodJittingStarted to MethodLoadVerbose). */
  public static final String JIT = "jit";

  /** A type loaded (TypeLoadStart/Stop). */
  public static final String TYPE = "type";

  /** A GC (GCStart/GCEnd). */
  public static final String GC = "gc";

  /** The app's entry method starting to be compiled: see {@link StartupAssembler}. */
  public static final String MAIN = "main";

  /** The offset in milliseconds. */
  public double offsetMillis() {
    return offsetNanos / 1e6;
  }

  /** The duration in milliseconds, or {@code null}. */
  public Double durationMillis() {
    return durationNanos == null ? null : durationNanos / 1e6;
  }
}
