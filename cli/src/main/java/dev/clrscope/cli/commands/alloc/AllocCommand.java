package dev.clrscope.cli.commands.alloc;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.commands.trace.StackSample;
import dev.clrscope.cli.commands.trace.TraceConversion;
import dev.clrscope.cli.commands.trace.TraceFileInput;
import dev.clrscope.cli.options.DurationOption;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.options.LineOptions;
import dev.clrscope.cli.options.SymbolServerOption;
import dev.clrscope.cli.options.TopOption;
import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.cli.render.Result;
import dev.clrscope.monitor.alloc.AllocationSampler;
import dev.clrscope.monitor.alloc.AllocationSummary;
import dev.clrscope.monitor.alloc.StackAllocations;
import dev.clrscope.monitor.methods.MethodAddressMap;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.symbols.Frame;
import dev.clrscope.symbols.FrameResolver;
import dev.clrscope.symbols.ManagedCodeMap;
import dev.clrscope.symbols.PerfMap;
import dev.clrscope.symbols.ProcessMaps;
import dev.clrscope.symbols.SourceLines;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code clrscope alloc}: what a process allocates, by type and by call stack, sampled. */
@Command(
    name = "alloc",
    mixinStandardHelpOptions = true,
    description = {
      "Sample what a process allocates through the runtime's allocation ticks (one about every"
          + " 100 KB a thread allocates, on the object that crossed the mark, with its stack):"
          + " the top types by estimated bytes (ticks, the sampled objects' sizes, the bytes the"
          + " ticks stand for), large-object-heap allocations apart, and the top allocating call"
          + " stacks. Runs until Ctrl+C, Enter, --duration or the target's exit. Give"
          + " FILE.nettrace instead of a target to read a saved trace (one recorded with"
          + " `trace collect --clrevents gc --clreventlevel verbose`)."
    })
public final class AllocCommand extends AttachingCommand {
  @Mixin FormatOption format;

  @Mixin DurationOption durationOption;

  /** How many call stacks per heap. */
  @Mixin TopOption top;

  @Option(
      names = "--flame",
      paramLabel = "FILE",
      description =
          "Also write the allocating stacks as a flame graph, weighted by ticks: speedscope for"
              + " a FILE ending in .json, else folded stacks (flamegraph.pl).")
  Path flame;

  @Mixin LineOptions lines;

  @Mixin SymbolServerOption symbolServer;

  private SourceLines sourceLines;

  @Override
  protected void validate() {
    sourceLines = lines.sourceLines(symbolServer.server());
    top.validate();
    // Said before the session, not after minutes of watching.
    if (flame != null) {
      OutputFile.check(flame, "--flame");
    }
  }

  @Override
  protected boolean readsFiles() {
    return true;
  }

  @Override
  protected Result readFile(Path file) {
    ManagedCodeMap methods = new ManagedCodeMap();
    if (sourceLines != null) {
      methods.withLines(sourceLines);
    }
    AllocationSampler sampler = new AllocationSampler();
    FrameResolver[] frames = new FrameResolver[1];
    SessionResult read =
        TraceFileInput.read(
            file,
            trace -> {
              frames[0] = FrameResolver.forTrace(file, trace.header().processId(), methods, false);
              return trace.feed(methods::accept, sampler);
            });
    TraceFileInput.warnings(read, "analysed").forEach(this::warn);
    return report(sampler, frames[0], file.getFileName().toString());
  }

  @Override
  protected Result run(AttachedTarget attached) {
    MethodAddressMap methods = new MethodAddressMap().withLines(sourceLines);
    AllocationSampler sampler = new AllocationSampler();
    // The target's native modules now, while it is there; named at the end.
    ProcessMaps maps =
        attached.pid() > 0 ? ProcessMaps.ofProcess(attached.pid()) : ProcessMaps.empty();
    watchMonitor(
        attached,
        AllocationSampler.sessionRequest(sourceLines != null)
            .withDuration(durationOption.duration()),
        "the allocations",
        () -> {},
        "some allocation ticks are missing",
        methods,
        sampler);
    PerfMap perf = attached.pid() > 0 ? PerfMap.forProcess(attached.pid()) : null;
    FrameResolver frames = new FrameResolver(methods.codeMap(), perf, maps, false);
    return report(sampler, frames, "process " + attached.pid());
  }

  private Result report(AllocationSampler sampler, FrameResolver frames, String name) {
    AllocationSummary s = sampler.summary(frames, top.count());
    if (s.ticks() == 0) {
      warn(
          "no allocation ticks were seen: the process allocated less than about 100 KB, or the"
              + " trace was not recorded with the GC keyword at verbose level");
    }
    if (flame != null) {
      List<StackSample> samples = new ArrayList<>();
      for (StackAllocations st : sampler.allStacks(frames)) {
        List<Frame> rootFirst = new ArrayList<>(st.frames());
        Collections.reverse(rootFirst);
        rootFirst.add(Frame.of("[" + st.topType() + (st.large() ? " (large)" : "") + "]"));
        for (long i = 0; i < st.ticks(); i++) {
          samples.add(new StackSample(0, 0, 1, rootFirst));
        }
      }
      TraceConversion.writeFlame(flame, "allocations of " + name, samples);
      err().println("Flame graph: " + flame);
    }
    // Said once the frames were named: a library is read when a frame first needs it.
    frames.problems().forEach(this::warn);
    return AllocOutput.report(s);
  }
}
