package dev.clrscope.cli.commands;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.ipc.ServerErrorException;
import dev.clrscope.ipc.client.DumpRequest;
import dev.clrscope.ipc.client.DumpType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code clrscope dump}: have the runtime write a core dump of its process. */
@Command(
    name = "dump",
    mixinStandardHelpOptions = true,
    description = {
      "Have the runtime write a core dump of its process (through createdump, which needs ptrace"
          + " rights over the target). Prints the dump's path on stdout."
    })
public final class DumpCommand extends AttachingCommand {
  /** Writing a dump of a large heap takes a while; the reply comes only when it is done. */
  private static final Duration DUMP_TIMEOUT = Duration.ofMinutes(10);

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description =
          "Where to write the dump (default: core_yyyyMMdd_HHmmss in the current directory).")
  Path output;

  @Option(
      names = "--type",
      paramLabel = "TYPE",
      defaultValue = "full",
      description = "full, heap, mini or triage (default: ${DEFAULT-VALUE}).")
  String type;

  @Option(names = "--crashreport", description = "Also write a JSON crash report beside the dump.")
  boolean crashReport;

  @Option(names = "--diag", description = "Log createdump's progress in the target's console.")
  boolean diag;

  @Override
  protected void validate() {
    try {
      DumpType.valueOf(type.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--type takes full, heap, mini or triage, got '" + type + "'");
    }
    if (output != null && Files.exists(output) && !Files.isRegularFile(output)) {
      throw new CommandFailure(
          output.toAbsolutePath().normalize()
              + " is not a regular file (a directory, device or FIFO): the runtime writes the dump"
              + " to a file of its own; choose another -o");
    }
    // The runtime writes it; the default name is made in the current directory.
    OutputFile.check(output != null ? output : Path.of("core"), "-o");
  }

  @Override
  protected boolean releaseFirst() {
    // A dump of a runtime still waiting at startup shows nothing of the app.
    return true;
  }

  @Override
  protected Result run(AttachedTarget attached) {
    DumpType dumpType;
    try {
      dumpType = DumpType.valueOf(type.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--type takes full, heap, mini or triage, got '" + type + "'");
    }
    Path file =
        (output != null
                ? output
                : Path.of(
                    "core_"
                        + LocalDateTime.now(java.time.ZoneId.systemDefault())
                            .format(DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss", Locale.ROOT))))
            .toAbsolutePath()
            .normalize();
    Path dir = file.getParent();
    err()
        .println(
            "Writing a "
                + type.toLowerCase(Locale.ROOT)
                + " dump of "
                + attached.describe()
                + " to "
                + file
                + " ...");
    try {
      attached
          .client()
          .writeDump(
              new DumpRequest(file.toString(), dumpType, diag, false, crashReport), DUMP_TIMEOUT);
    } catch (ServerErrorException e) {
      Long free = freeMiB(dir);
      if (free != null && free < LOW_SPACE_MIB) {
        throw new CommandFailure(
            "the runtime could not write the dump ("
                + e.getMessage()
                + "): "
                + dir
                + " has only "
                + free
                + " MiB free; free some space or choose -o on another disk",
            e);
      }
      throw new CommandFailure(
          "the runtime could not write the dump ("
              + e.getMessage()
              + "). createdump needs ptrace rights over the target: run clrscope as the target's"
              + " user or as root; in a container add the SYS_PTRACE capability; check"
              + " /proc/sys/kernel/yama/ptrace_scope",
          e);
    }
    String size = "";
    try {
      long bytes = Files.size(file);
      if (bytes == 0) {
        Files.deleteIfExists(file);
        Long free = freeMiB(dir);
        throw new CommandFailure(
            "the runtime reported the dump written, but "
                + file
                + " was empty (removed): is the disk full?"
                + (free == null ? "" : " " + dir + " has " + free + " MiB free"));
      }
      size = " (" + Unit.bytes(bytes) + ")";
    } catch (IOException e) {
      // The target may see another file system (a container): its path is still the answer.
    }
    err().println("Dump written" + size);
    return Report.path(file);
  }

  /** Below this much free space, a failed dump is put down to the disk. */
  private static final long LOW_SPACE_MIB = 256;

  /** The space free to this user in {@code dir}, in MiB, or {@code null} if unknown. */
  private static Long freeMiB(Path dir) {
    try {
      return Files.getFileStore(dir).getUsableSpace() / (1024 * 1024);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
