package dev.clrscope.cli.options;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --buffersize MB}: the runtime's buffer for a session, as dotnet-trace and dotnet-gcdump
 * take it. Each command has its own default: those tools' (256 MB for traces, 1024 MB for heap
 * snapshots).
 */
public final class BufferSizeOption {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(
      names = "--buffersize",
      paramLabel = "MB",
      description =
          "The runtime's buffer for this session, in MB (default: 256 for traces, 1024 for heap"
              + " snapshots, as dotnet-trace and dotnet-gcdump); raise it when the runtime drops"
              + " events.")
  Integer megabytes;

  /** The trace tools' default. */
  public static final int TRACE_DEFAULT_MB =
      dev.clrscope.monitor.trace.SessionPlan.DEFAULT_BUFFER_MB;

  /** The size in MB, checked (a usage error unless positive), or the traces' default. */
  public int megabytes() {
    return megabytesOr(TRACE_DEFAULT_MB);
  }

  /**
   * The size in MB, checked (a usage error unless positive), or {@code defaultMb} when not given.
   */
  public int megabytesOr(int defaultMb) {
    if (megabytes == null) {
      return defaultMb;
    }
    if (megabytes <= 0) {
      throw new ParameterException(
          mixee.commandLine(), "--buffersize must be a positive number of MB, got " + megabytes);
    }
    return megabytes;
  }
}
