package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.options.LineOptions;
import dev.clrscope.cli.options.SymbolServerOption;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.symbols.SourceLines;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code clrscope trace convert}: a nettrace file to speedscope, Chromium or folded stacks. */
@Command(
    name = "convert",
    mixinStandardHelpOptions = true,
    description = {
      "Convert a trace's thread samples to a profile: speedscope JSON, Chromium trace-event JSON"
          + " or folded stacks. Streams the trace twice (method names, then samples), so memory"
          + " does not grow with its size; a truncated trace converts up to its last complete"
          + " block. Prints the output's path on stdout."
    })
public final class ConvertCommand extends ClrscopeSubcommand {
  @Parameters(index = "0", paramLabel = "FILE", description = "The nettrace file.")
  Path input;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "speedscope",
      description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  ConversionFormat format;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "OUT",
      description =
          "The output file, or - for stdout (default: beside FILE, as x.speedscope.json,"
              + " x.chromium.json or x.folded.txt).")
  String output;

  @Option(
      names = "--all-events",
      description =
          "Chromium only: also write every event that is not a thread sample (GCs, exceptions,"
              + " ...) as an instant event with its payload. By default only the samples are"
              + " written, as dotnet-trace does.")
  boolean allEvents;

  @Mixin LineOptions lines;

  @Mixin SymbolServerOption symbolServer;

  @Override
  protected Result run() {
    if (allEvents && format != ConversionFormat.chromium) {
      throw new ParameterException(
          spec.commandLine(),
          "--all-events applies to --format chromium only (speedscope and folded stacks hold"
              + " samples alone)");
    }
    SourceLines source = lines.sourceLines(symbolServer.server());
    TraceFileInput.checkReadable(input);
    if ("-".equals(output)) {
      try {
        TraceConversion.Result r = TraceConversion.convert(input, out(), format, allEvents, source);
        out().flush();
        TraceConversion.report(r, format, err());
      } catch (IOException e) {
        throw new CommandFailure("could not write to stdout: " + e.getMessage(), e);
      }
      return Result.done();
    }
    Path target =
        output != null
            ? Path.of(output)
            : TraceFileNames.convertedName(input.toAbsolutePath(), format);
    TraceConversion.convert(input, target, format, allEvents, source, err());
    return Report.path(target);
  }
}
