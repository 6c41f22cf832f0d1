package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.TraceHeader;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.symbols.FrameResolver;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Converts a trace to a profile format in two streaming passes over the file: the first collects
 * the method address ranges (the rundown that names them comes at the end of a trace), the second
 * resolves each thread sample's stack and hands it to the format's writer. A truncated trace is
 * read leniently: everything up to its last complete block is converted and the output is still
 * complete and valid.
 */
public final class TraceConversion {
  private TraceConversion() {}

  /**
   * What a conversion saw.
   *
   * @param samples thread samples converted
   * @param methods methods known from the trace
   * @param ending how reading the input ended: cut short, or with bytes after its end
   * @param frameProblems what could not be used to name native frames (a sidecar or library)
   */
  public record Result(
      long samples, int methods, TraceFileInput.ReadEnding ending, List<String> frameProblems) {
    /** Why the input ended early, or null. */
    public String truncatedAt() {
      return ending.truncatedAt();
    }
  }

  /** Converts {@code trace} into the file {@code output}, with notes on {@code err}. */
  public static Result convert(Path trace, Path output, ConversionFormat format, PrintStream err) {
    return convert(trace, output, format, false, err);
  }

  /**
   * Converts {@code trace} into the file {@code output}, with notes on {@code err}; {@code
   * allEvents} adds every event that is not a sample, where the format has room for it (Chromium).
   */
  public static Result convert(
      Path trace, Path output, ConversionFormat format, boolean allEvents, PrintStream err) {
    Result result = OutputFile.write(output, out -> convert(trace, out, format, allEvents));
    report(result, format, err);
    return result;
  }

  /** Prints the notes of a conversion. */
  static void report(Result r, ConversionFormat format, PrintStream err) {
    r.ending().warnings("converted").forEach(w -> err.println("clrscope trace convert: " + w));
    r.frameProblems().forEach(w -> err.println("clrscope trace convert: " + w));
    if (r.samples() == 0) {
      err.println(
          "clrscope trace convert: the trace has no thread samples, so the "
              + format
              + " output has no stacks (collect with --profile dotnet-sampled-thread-time)");
    } else if (r.methods() == 0) {
      err.println(
          "clrscope trace convert: the trace has no method load or rundown events, so frames are"
              + " hex addresses (collect with --rundown)");
    }
  }

  /** Converts {@code trace} into {@code out} (not closed). */
  public static Result convert(Path trace, OutputStream out, ConversionFormat format)
      throws IOException {
    return convert(trace, out, format, false);
  }

  /**
   * Converts {@code trace} onto {@code out}; see {@link #convert(Path, Path, ConversionFormat,
   * boolean, PrintStream)}.
   */
  public static Result convert(
      Path trace, OutputStream out, ConversionFormat format, boolean allEvents) throws IOException {
    FrameResolver frames = TraceFileInput.frames(trace, false);
    try (NetTraceReader reader = NetTraceReader.open(trace, true)) {
      TraceHeader header = reader.header();
      double weightMs =
          header.expectedCpuSamplingRate() > 0 ? header.expectedCpuSamplingRate() / 1e6 : 1.0;
      Writer text = new OutputStreamWriter(out, StandardCharsets.UTF_8);
      long samples = 0;
      try (ProfileWriter w = writer(format, out, text, trace, header, allEvents)) {
        TraceEvent e;
        while ((e = reader.next()) != null) {
          double ms = e.relativeMillis();
          if (RuntimeEvents.SAMPLE_PROFILER_PROVIDER.equals(e.providerName())) {
            int depth = e.stack().depth();
            if (depth == 0) {
              continue;
            }
            String[] names = new String[depth];
            for (int i = 0; i < depth; i++) {
              // Stacks are innermost first; profiles want the root first.
              names[depth - 1 - i] = frames.name(e.stack().frame(i));
            }
            w.sample(new StackSample(e.threadId(), ms, weightMs, Arrays.asList(names)));
            samples++;
          } else {
            w.event(e, ms);
          }
        }
        w.finish();
      }
      text.flush();
      return new Result(
          samples,
          frames.managed().size(),
          TraceFileInput.ReadEnding.of(reader),
          frames.problems());
    } catch (NetTraceFormatException e) {
      throw new CommandFailure(trace + " is not a trace clrscope can read: " + e.getMessage(), e);
    }
  }

  /**
   * Writes samples that are not a trace's own (allocation ticks, ...) as a flame graph: folded
   * stacks, or speedscope for a {@code .json} file, through the writers {@code trace convert} uses.
   *
   * @param name the profile's name (speedscope)
   */
  public static void writeFlame(Path output, String name, List<StackSample> samples) {
    ConversionFormat format =
        output.getFileName() != null && output.getFileName().toString().endsWith(".json")
            ? ConversionFormat.speedscope
            : ConversionFormat.folded;
    OutputFile.write(
        output,
        out -> {
          Writer text = new OutputStreamWriter(out, StandardCharsets.UTF_8);
          try (ProfileWriter w =
              format == ConversionFormat.folded
                  ? new FoldedStacksWriter(text)
                  : new SpeedscopeWriter(out, name)) {
            for (StackSample s : samples) {
              w.sample(s);
            }
            w.finish();
          }
          text.flush();
          return null;
        });
  }

  private static ProfileWriter writer(
      ConversionFormat format,
      OutputStream out,
      Writer text,
      Path trace,
      TraceHeader header,
      boolean allEvents)
      throws IOException {
    return switch (format) {
      case folded -> new FoldedStacksWriter(text);
      case speedscope -> new SpeedscopeWriter(out, trace.getFileName().toString());
      case chromium ->
          new ChromiumTraceWriter(
              out, header.processId(), trace.getFileName().toString(), allEvents);
    };
  }

  /** Parses a format name, case-insensitively. */
  static ConversionFormat format(String name) {
    return ConversionFormat.valueOf(name.strip().toLowerCase(Locale.ROOT));
  }
}
