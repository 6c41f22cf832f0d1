package dev.clrscope.cli.options;

import dev.clrscope.monitor.trace.SessionPlan;
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
      defaultValue = "" + SessionPlan.DEFAULT_BUFFER_MB,
      description =
          "The runtime's buffer for this session, in MB (default: ${DEFAULT-VALUE}, as"
              + " dotnet-trace and dotnet-gcdump); raise it when the runtime drops events.")
  int megabytes = SessionPlan.DEFAULT_BUFFER_MB;

  /** The size in MB, checked (a usage error unless positive). */
  public int megabytes() {
    if (megabytes <= 0) {
      throw new ParameterException(
          mixee.commandLine(), "--buffersize must be a positive number of MB, got " + megabytes);
    }
    return megabytes;
  }
}
