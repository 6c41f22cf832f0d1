package dev.clrscope.dac;

/**
 * Every failure this module reports about a target (a core file, a live process, its runtime, the
 * DAC it needs) or the address a caller asked about. The message is one line for a person at a
 * terminal: what happened and, where there is one, what to do; a command prints it as it is. The
 * {@link Problem} lets a caller tell the cases apart without reading the text. Programming errors
 * are never wrapped in this type.
 */
public final class TargetException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What kind of failure this is. */
  public enum Problem {
    /** The file is not an ELF core file (another format, or an ELF file that is not a core). */
    NOT_A_CORE,
    /** The core file is shorter than its headers say: the dump was cut short. */
    TRUNCATED_CORE,
    /** The core file's headers or notes contradict themselves. */
    CORRUPT_CORE,
    /** A core or process of an architecture this module does not read (only x86-64). */
    UNSUPPORTED_ARCHITECTURE,
    /** The process has no .NET runtime (no libcoreclr.so mapped), or its runtime is unusable. */
    NOT_DOTNET,
    /** The process could not be paused: ptrace was refused. */
    PTRACE_REFUSED,
    /** The process does not exist, or exited while it was read. */
    PROCESS_GONE,
    /** No DAC matching the runtime's build was found. */
    DAC_NOT_FOUND,
    /** The DAC was found but failed: it could not be loaded, or a call into it failed. */
    DAC_FAILED,
    /** An address a caller gave is not a managed object, or a method table is not one. */
    NOT_AN_OBJECT,
    /** Target memory the request needs is not in the dump or not readable in the process. */
    UNREADABLE_MEMORY,
    /** The request was stopped before it finished (the target is being released). */
    INTERRUPTED,
  }

  private final Problem problem;

  /** A failure with a user-facing message. */
  public TargetException(Problem problem, String message) {
    super(message);
    this.problem = problem;
  }

  /** A failure with a user-facing message and the low-level cause. */
  public TargetException(Problem problem, String message, Throwable cause) {
    super(message, cause);
    this.problem = problem;
  }

  /** What kind of failure this is. */
  public Problem problem() {
    return problem;
  }
}
