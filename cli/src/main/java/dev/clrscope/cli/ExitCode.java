package dev.clrscope.cli;

/** The exit codes clrscope itself returns (a launched child's own code is passed through). */
public final class ExitCode {
  /** Success. */
  public static final int OK = 0;

  /** The target or the environment failed: no such process, permission denied, timeout. */
  public static final int TARGET_ERROR = 1;

  /** The command line was wrong. */
  public static final int USAGE = 2;

  /** {@code triage --fail-on}: a finding at or above the severity given was made. */
  public static final int FINDINGS = 3;

  /** A bug in clrscope: the stack trace is printed. (EX_SOFTWARE, from sysexits.h.) */
  public static final int INTERNAL_ERROR = 70;

  private ExitCode() {}
}
