package dev.clrscope.cli.options;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --buffersize MB}: the runtime's buffer for a session, as dotnet-trace takes it. */
public final class BufferSizeOption {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(
      names = "--buffersize",
      paramLabel = "MB",
      defaultValue = "256",
      description =
          "The runtime's buffer for this session, in MB (default: ${DEFAULT-VALUE}); raise it when"
              + " the runtime drops events.")
  int megabytes = 256;

  /** The size in MB, checked: a usage error unless positive. */
  public int megabytes() {
    if (megabytes <= 0) {
      throw new ParameterException(
          mixee.commandLine(), "--buffersize must be a positive number of MB, got " + megabytes);
    }
    return megabytes;
  }
}
