package dev.clrscope.cli.commands.stack;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.options.DurationParser;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.options.LineOptions;
import dev.clrscope.cli.options.SymbolServerOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.FrameFields;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.ipc.session.EventLevel;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.monitor.methods.MethodAddressMap;
import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.monitor.session.SessionRequest;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.session.StopSwitch;
import dev.clrscope.nettrace.PayloadCursor;
import dev.clrscope.nettrace.StackTrace;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.symbols.Frame;
import dev.clrscope.symbols.ProcessMaps;
import dev.clrscope.symbols.SourceLines;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code clrscope stack}: the managed stack of every thread of a live process, as {@code
 * dotnet-stack report} takes it: a short EventPipe session of the sample profiler with the rundown
 * at its end, the first sample of each thread, its frames named from the rundown. The process is
 * never paused ({@code analyze -p PID -c "clrstack -all"} pauses it and reads every frame exactly).
 */
@Command(
    name = "stack",
    mixinStandardHelpOptions = true,
    description = {
      "The managed stack of every thread of a live process, innermost frame first, as"
          + " dotnet-stack report prints it: one sample per thread from a short EventPipe session"
          + " (the process is not paused), frames named as `trace report` names them."
          + " `analyze -p PID -c \"clrstack -all\"` pauses the process and reads the exact"
          + " stacks."
    })
public final class StackCommand extends AttachingCommand {
  /** dotnet-stack's default: ten milliseconds of samples (the profiler samples every 1 ms). */
  static final Duration DEFAULT_DURATION = Duration.ofMillis(10);

  /** How long the rundown at the end may take: it names every method the process compiled. */
  static final Duration RUNDOWN_LIMIT = Duration.ofSeconds(60);

  @Option(
      names = "--duration",
      hidden = true,
      paramLabel = "DURATION",
      converter = DurationParser.class,
      description = "How long to sample (default: 10ms, as dotnet-stack).")
  Duration duration = DEFAULT_DURATION;

  @Mixin LineOptions lines;

  @Mixin SymbolServerOption symbolServer;

  @Mixin FormatOption format;

  private SourceLines sourceLines;

  /** The frame that stands for native code below a thread's managed frames, as dotnet-stack. */
  static final String NATIVE_FRAMES = "[Native Frames]";

  /** The sample profiler's type of a sample taken outside managed code. */
  private static final long EXTERNAL = 1;

  @Override
  protected void validate() {
    sourceLines = lines.sourceLines(symbolServer.server());
    if (duration.isNegative() || duration.isZero()) {
      throw new ParameterException(spec.commandLine(), "--duration must be positive");
    }
  }

  /**
   * The first sample of each thread, in the order threads were first sampled, and whether the
   * thread was outside managed code then.
   *
   * <p>.NET 9 (9.0.20) says the first sample it ever takes of a thread is of managed code (type 2)
   * even when the thread waits in native code, and every later one, at the same address, External
   * (type 1): a thread blocked in {@code Thread.Sleep} showed 2 then 1, 1, 1... in one session, and
   * 1 from the first sample in every later session; .NET 8 and 10 say 1 from the first. So a later
   * External sample of the thread at the same innermost address marks it external too: a thread
   * that ran managed code would have moved on or stayed of type 2.
   */
  private static final class FirstSamples implements EventConsumer {
    final Map<Long, StackTrace> stacks = new LinkedHashMap<>();
    final Map<Long, Boolean> external = new LinkedHashMap<>();

    @Override
    public void accept(TraceEvent e) {
      if (e.eventId() != RuntimeEvent.SampleProfiler.THREAD_SAMPLE
          || !RuntimeEvents.SAMPLE_PROFILER_PROVIDER.equals(e.providerName())
          || e.stack().depth() == 0) {
        return;
      }
      StackTrace first = stacks.get(e.threadId());
      if (first == null) {
        stacks.put(e.threadId(), e.stack());
        external.put(e.threadId(), type(e) == EXTERNAL);
      } else if (!external.get(e.threadId())
          && type(e) == EXTERNAL
          && e.stack().frame(0) == first.frame(0)) {
        external.put(e.threadId(), true);
      }
    }

    private static long type(TraceEvent e) {
      if (e.payloadLength() < 4) {
        return 0;
      }
      PayloadCursor c = e.payload();
      return c.readU32("Type");
    }
  }

  /** A thread's stack. */
  record ThreadStack(long thread, List<Frame> frames) {}

  /** A frame: its name as dotnet-stack's, and its line where the method's PDB is found. */
  private static final RecordSchema<Frame> FRAME = frameSchema();

  private static RecordSchema<Frame> frameSchema() {
    List<Field<Frame>> f = new ArrayList<>();
    f.add(Field.of("frame", "FRAME", 0, Unit.TEXT, Frame::name).cell(Frame::text));
    f.addAll(FrameFields.lineFields(Frame::line, null));
    return new RecordSchema<>(null, f);
  }

  private static final RecordSchema<ThreadStack> STACKS =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("thread", "THREAD", 0, Unit.ID, ThreadStack::thread),
              Field.of("frameCount", "FRAMES", 0, Unit.COUNT, (ThreadStack s) -> s.frames().size()),
              Field.<ThreadStack>data(
                      "frames", Unit.TEXT, s -> String.join(" | ", FrameFields.texts(s.frames())))
                  .only(Field.Shown.CSV),
              Field.nested("frames", FRAME, ThreadStack::frames)));

  @Override
  protected Result run(AttachedTarget attached) {
    MethodAddressMap methods =
        new MethodAddressMap(
                attached.pid() > 0 ? ProcessMaps.ofProcess(attached.pid()) : ProcessMaps.empty())
            .withLines(sourceLines);
    FirstSamples samples = new FirstSamples();
    SessionRequest request =
        SessionRequest.of(
                new EventPipeSessionConfig(
                    16,
                    List.of(
                        new EventPipeProvider(
                            RuntimeEvents.SAMPLE_PROFILER_PROVIDER,
                            0,
                            EventLevel.INFORMATIONAL.value(),
                            Map.of(),
                            List.of())),
                    EventPipeSessionConfig.DEFAULT_RUNDOWN_KEYWORD,
                    true,
                    false),
                "clrscope-stack")
            .withDuration(duration)
            .withDrainTimeout(RUNDOWN_LIMIT);
    SessionResult result =
        watch(
            attached,
            request,
            new StopSwitch(),
            false,
            session -> session.finish(),
            methods,
            samples);
    warnAboutStream(result, "some threads may be missing");
    if (result.failure() == null && !result.reachedEnd()) {
      warn(
          "the rundown did not end within "
              + RUNDOWN_LIMIT.toSeconds()
              + " s: some frames are addresses");
    }
    List<ThreadStack> stacks = new ArrayList<>();
    samples.stacks.forEach(
        (thread, stack) -> {
          List<Frame> frames = new ArrayList<>();
          boolean external = samples.external.get(thread);
          if (external) {
            frames.add(Frame.of(NATIVE_FRAMES));
          }
          // Outside managed code, even the innermost managed frame holds a return address.
          for (int i = 0; i < stack.depth(); i++) {
            frames.add(methods.frame(stack.frame(i), external || i > 0));
          }
          stacks.add(new ThreadStack(thread, frames));
        });
    if (stacks.isEmpty()) {
      warn(
          "no thread was sampled in "
              + Unit.duration(duration)
              + ": the process may have no managed thread running");
    }
    methods.problems().forEach(this::warn);
    return Report.builder()
        .rows(null, null, STACKS, stacks, s -> FrameFields.texts(s.frames()))
        .build();
  }
}
