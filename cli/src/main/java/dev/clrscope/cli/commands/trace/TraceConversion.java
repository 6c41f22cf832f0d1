package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.nettrace.StackTrace;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.TraceHeader;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.symbols.Frame;
import dev.clrscope.symbols.FrameResolver;
import dev.clrscope.symbols.ManagedCodeMap;
import dev.clrscope.symbols.SourceLines;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Converts a trace to a profile format in one pass over the file: events that are not samples go to
 * the format's writer as they come; thread samples are kept (thread, time and the reader's shared
 * stack) until the end, where the rundown has named every method, and then named, each distinct
 * address once, and written. A truncated trace is read leniently: everything up to its last
 * complete block is converted and the output is still complete and valid.
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
  public record Result(long samples, int methods, SessionResult read, List<String> frameProblems) {
    /** Why the input ended early, or null. */
    public String truncatedAt() {
      return read.truncation() == null ? null : read.truncation().getMessage();
    }
  }

  /**
   * Converts {@code trace} into the file {@code output}, with notes on {@code err}; {@code
   * allEvents} adds every event that is not a sample, where the format has room for it (Chromium);
   * frames carry lines when {@code lines} is given.
   */
  public static Result convert(
      Path trace,
      Path output,
      ConversionFormat format,
      boolean allEvents,
      SourceLines lines,
      PrintStream err) {
    Result result = OutputFile.write(output, out -> convert(trace, out, format, allEvents, lines));
    report(result, format, err);
    return result;
  }

  /** Prints the notes of a conversion. */
  static void report(Result r, ConversionFormat format, PrintStream err) {
    TraceFileInput.warnings(r.read(), "converted")
        .forEach(w -> err.println("clrscope trace convert: " + w));
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

  /** Converts {@code trace} into {@code out} (not closed), frames without lines. */
  public static Result convert(Path trace, OutputStream out, ConversionFormat format)
      throws IOException {
    return convert(trace, out, format, false, null);
  }

  /**
   * Converts {@code trace} onto {@code out}; see {@link #convert(Path, Path, ConversionFormat,
   * boolean, SourceLines, PrintStream)}.
   */
  public static Result convert(
      Path trace, OutputStream out, ConversionFormat format, boolean allEvents, SourceLines lines)
      throws IOException {
    ManagedCodeMap methods = new ManagedCodeMap();
    if (lines != null) {
      methods.withLines(lines);
    }
    Writer text = new OutputStreamWriter(out, StandardCharsets.UTF_8);
    Result result;
    try {
      result =
          TraceFileInput.read(
              trace,
              t -> {
                TraceHeader header = t.header();
                double weightMs =
                    header.expectedCpuSamplingRate() > 0
                        ? header.expectedCpuSamplingRate() / 1e6
                        : 1.0;
                try (ProfileWriter w = writer(format, out, text, trace, header, allEvents)) {
                  Samples samples = new Samples(w);
                  SessionResult read = t.feed(methods::accept, samples);
                  FrameResolver frames =
                      FrameResolver.forTrace(trace, header.processId(), methods, false);
                  long n = samples.write(frames, weightMs);
                  w.finish();
                  return new Result(n, methods.size(), read, frames.problems());
                } catch (IOException e) {
                  throw new WriteFailure(e);
                }
              });
    } catch (WriteFailure e) {
      // Writing the output failed, not reading the trace: the caller says which file.
      throw e.getCause();
    }
    text.flush();
    return result;
  }

  /** Writing the output failed while the trace was read: told apart from a trace unreadable. */
  private static final class WriteFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    WriteFailure(IOException cause) {
      super(cause);
    }

    @Override
    public synchronized IOException getCause() {
      return (IOException) super.getCause();
    }
  }

  /** A trace's thread samples, kept until the end of the trace names their frames. */
  private static final class Samples implements EventConsumer {
    private final ProfileWriter writer;
    private final List<Long> threads = new ArrayList<>();
    private final List<Double> times = new ArrayList<>();
    private final List<StackTrace> stacks = new ArrayList<>();

    Samples(ProfileWriter writer) {
      this.writer = writer;
    }

    @Override
    public void accept(TraceEvent e) {
      double ms = e.relativeMillis();
      if (RuntimeEvents.SAMPLE_PROFILER_PROVIDER.equals(e.providerName())) {
        if (e.stack().depth() > 0) {
          threads.add(e.threadId());
          times.add(ms);
          stacks.add(e.stack());
        }
      } else {
        try {
          writer.event(e, ms);
        } catch (IOException x) {
          throw new WriteFailure(x);
        }
      }
    }

    /** Names and writes every sample, in the order read; returns how many. */
    long write(FrameResolver frames, double weightMs) throws IOException {
      for (int k = 0; k < stacks.size(); k++) {
        StackTrace stack = stacks.get(k);
        int depth = stack.depth();
        Frame[] names = new Frame[depth];
        for (int i = 0; i < depth; i++) {
          // Stacks are innermost first; profiles want the root first. Below the innermost, a
          // frame holds a return address: its line is the call's.
          names[depth - 1 - i] = frames.frame(stack.frame(i), i > 0);
        }
        writer.sample(
            new StackSample(threads.get(k), times.get(k), weightMs, Arrays.asList(names)));
      }
      return stacks.size();
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
