package dev.clrscope.monitor.profile;

import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.nettrace.PayloadCursor;
import dev.clrscope.nettrace.StackTrace;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.symbols.FrameResolver;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The top methods of a trace's thread samples (SampleProfiler), exclusive (innermost frame) and
 * inclusive (anywhere on the stack, counted once per sample). Samples of a thread running managed
 * code (CPU) and of a thread outside it (waiting or native: thread time) are counted apart.
 *
 * <p>One pass: while the trace is read, samples are counted per distinct stack (the reader shares
 * one {@link StackTrace} between the events of a stack); names are looked up only when the top is
 * asked for, once the trace's rundown at its end has named every method, and each distinct address
 * once.
 */
public final class SampleProfile implements EventConsumer {
  /** SampleProfiler's ThreadSample type: the thread was running managed code. */
  private static final int TYPE_MANAGED = 2;

  private final FrameResolver frames;
  private final long thread;

  /** Per distinct stack: samples, and samples on CPU. */
  private final Map<StackTrace, long[]> byStack = new IdentityHashMap<>();

  private long samples;
  private long cpu;
  private long frameCount;
  private final Set<Long> threads = new HashSet<>();

  /**
   * @param frames names the frames, once the trace has been read
   * @param thread only this thread's samples, or -1 for every thread
   */
  public SampleProfile(FrameResolver frames, long thread) {
    this.frames = frames;
    this.thread = thread;
  }

  @Override
  public void accept(TraceEvent e) {
    if (e.eventId() != RuntimeEvent.SampleProfiler.THREAD_SAMPLE
        || !RuntimeEvents.SAMPLE_PROFILER_PROVIDER.equals(e.providerName())) {
      return;
    }
    StackTrace stack = e.stack();
    int depth = stack.depth();
    if (depth == 0 || (thread >= 0 && e.threadId() != thread)) {
      return;
    }
    boolean onCpu = type(e) == TYPE_MANAGED;
    samples++;
    if (onCpu) {
      cpu++;
    }
    threads.add(e.threadId());
    frameCount += depth;
    long[] counts = byStack.computeIfAbsent(stack, k -> new long[2]);
    counts[0]++;
    if (onCpu) {
      counts[1]++;
    }
  }

  private static long type(TraceEvent e) {
    if (e.payloadLength() < 4) {
      return 0;
    }
    PayloadCursor c = e.payload();
    return c.readU32("Type");
  }

  /** The totals. */
  public SampleTotals totals() {
    return new SampleTotals(samples, cpu, samples - cpu, threads.size(), frameCount);
  }

  /**
   * The {@code n} methods with the most samples, exclusive or inclusive, most first (ties by name).
   */
  public List<MethodSamples> top(int n, boolean byInclusive) {
    long[] exclusive = new long[1024];
    long[] exclusiveCpu = new long[1024];
    long[] inclusive = new long[1024];
    long[] inclusiveCpu = new long[1024];
    // The stack number at which an id was last counted inclusively: once per stack.
    long[] seenAt = new long[1024];
    long stamp = 0;
    for (Map.Entry<StackTrace, long[]> s : byStack.entrySet()) {
      StackTrace stack = s.getKey();
      long all = s.getValue()[0];
      long onCpu = s.getValue()[1];
      stamp++;
      for (int i = 0; i < stack.depth(); i++) {
        int id = frames.frameId(stack.frame(i));
        if (id >= exclusive.length) {
          int size = Math.max(id + 1, exclusive.length * 2);
          exclusive = Arrays.copyOf(exclusive, size);
          exclusiveCpu = Arrays.copyOf(exclusiveCpu, size);
          inclusive = Arrays.copyOf(inclusive, size);
          inclusiveCpu = Arrays.copyOf(inclusiveCpu, size);
          seenAt = Arrays.copyOf(seenAt, size);
        }
        if (i == 0) {
          exclusive[id] += all;
          exclusiveCpu[id] += onCpu;
        }
        if (seenAt[id] != stamp) {
          seenAt[id] = stamp;
          inclusive[id] += all;
          inclusiveCpu[id] += onCpu;
        }
      }
    }
    List<MethodSamples> methods = new ArrayList<>();
    int limit = Math.min(frames.idLimit(), exclusive.length);
    for (int id = 1; id < limit; id++) {
      if (inclusive[id] > 0) {
        methods.add(
            new MethodSamples(
                frames.name(id), exclusive[id], exclusiveCpu[id], inclusive[id], inclusiveCpu[id]));
      }
    }
    Comparator<MethodSamples> order =
        byInclusive
            ? Comparator.comparingLong(MethodSamples::inclusive)
                .reversed()
                .thenComparing(Comparator.comparingLong(MethodSamples::exclusive).reversed())
            : Comparator.comparingLong(MethodSamples::exclusive)
                .reversed()
                .thenComparing(Comparator.comparingLong(MethodSamples::inclusive).reversed());
    methods.sort(order.thenComparing(MethodSamples::name));
    return methods.subList(0, Math.min(n, methods.size()));
  }
}
