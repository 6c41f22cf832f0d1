package dev.clrscope.cli.commands;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.render.Result;
import dev.clrscope.ipc.client.PerfMapType;
import java.util.Locale;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code clrscope perfmap}: make the runtime write perf maps for native profilers, or stop. */
@Command(
    name = "perfmap",
    mixinStandardHelpOptions = true,
    description = {
      "Make the runtime write /tmp/perf-PID.map and/or /tmp/jit-PID.dump so that perf and other"
          + " native profilers can name JIT-compiled methods, or stop writing them."
    })
public final class PerfMapCommand extends AttachingCommand {

  static final class Mode {
    @Option(
        names = "--enable",
        arity = "0..1",
        paramLabel = "KIND",
        fallbackValue = "all",
        description = "Start writing: all (default), jitdump or perfmap.")
    String enable;

    @Option(names = "--disable", description = "Stop writing perf maps.")
    boolean disable;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Mode mode;

  @Override
  protected Result run(AttachedTarget attached) {
    if (mode.disable) {
      attached.client().disablePerfMap();
      err().println("Perf maps disabled in " + attached.describe());
      return Result.done();
    }
    PerfMapType type;
    try {
      type = PerfMapType.valueOf(mode.enable.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--enable takes all, jitdump or perfmap, got '" + mode.enable + "'");
    }
    attached.client().enablePerfMap(type);
    long pid = attached.pid();
    String files =
        switch (type) {
          case ALL -> "/tmp/perf-" + pid + ".map and /tmp/jit-" + pid + ".dump";
          case JITDUMP -> "/tmp/jit-" + pid + ".dump";
          case PERFMAP -> "/tmp/perf-" + pid + ".map";
        };
    err().println("Perf maps enabled in process " + pid + ": the runtime now writes " + files);
    return Result.done();
  }
}
