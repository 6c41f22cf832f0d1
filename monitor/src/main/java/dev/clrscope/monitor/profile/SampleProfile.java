package dev.clrscope.monitor.profile;

import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.nettrace.PayloadCursor;
import dev.clrscope.nettrace.StackTrace;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.symbols.FrameResolver;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The top methods of a trace's thread samples (SampleProfiler), exclusive (innermost frame) and
 * inclusive (anywhere on the stack, counted once per sample), in primitive arrays indexed by the
 * resolver's frame ids. Samples of a thread running managed code (CPU) and of a thread outside it
 * (waiting or native: thread time) are counted apart. Feed it a whole trace once the resolver knows
 * the trace's methods (their names come from the rundown at its end).
 */
public final class SampleProfile implements EventConsumer {
  /** SampleProfiler's ThreadSample type: the thread was running managed code. */
  private static final int TYPE_MANAGED = 2;

  private final FrameResolver frames;
  private final long thread;
  private long[] exclusive = new long[1024];
  private long[] exclusiveCpu = new long[1024];
  private long[] inclusive = new long[1024];
  private long[] inclusiveCpu = new long[1024];

  /** The sample number at which an id was last counted inclusively: once per sample. */
  private long[] seenAt = new long[1024];

  private long samples;
  private long cpu;
  private long frameCount;
  private final Set<Long> threads = new HashSet<>();

  /**
   * @param frames names the frames
   * @param thread only this thread's samples, or -1 for every thread
   */
  public SampleProfile(FrameResolver frames, long thread) {
    this.frames = frames;
    this.thread = thread;
  }

  @Override
  public void accept(TraceEvent e) {
    if (e.eventId() != 0 || !RuntimeEvents.SAMPLE_PROFILER_PROVIDER.equals(e.providerName())) {
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
    long stamp = samples;
    for (int i = 0; i < depth; i++) {
      int id = frames.frameId(stack.frame(i));
      if (id >= exclusive.length) {
        grow(id);
      }
      if (i == 0) {
        exclusive[id]++;
        if (onCpu) {
          exclusiveCpu[id]++;
        }
      }
      if (seenAt[id] != stamp) {
        seenAt[id] = stamp;
        inclusive[id]++;
        if (onCpu) {
          inclusiveCpu[id]++;
        }
      }
    }
  }

  private static long type(TraceEvent e) {
    if (e.payloadLength() < 4) {
      return 0;
    }
    PayloadCursor c = e.payload();
    return c.readU32("Type");
  }

  private void grow(int id) {
    int n = Math.max(id + 1, exclusive.length * 2);
    exclusive = Arrays.copyOf(exclusive, n);
    exclusiveCpu = Arrays.copyOf(exclusiveCpu, n);
    inclusive = Arrays.copyOf(inclusive, n);
    inclusiveCpu = Arrays.copyOf(inclusiveCpu, n);
    seenAt = Arrays.copyOf(seenAt, n);
  }

  /** The totals. */
  public SampleTotals totals() {
    return new SampleTotals(samples, cpu, samples - cpu, threads.size(), frameCount);
  }

  /**
   * The {@code n} methods with the most samples, exclusive or inclusive, most first (ties by name).
   */
  public List<MethodSamples> top(int n, boolean byInclusive) {
    List<MethodSamples> all = new ArrayList<>();
    int limit = Math.min(frames.idLimit(), exclusive.length);
    for (int id = 1; id < limit; id++) {
      if (inclusive[id] > 0) {
        all.add(
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
    all.sort(order.thenComparing(MethodSamples::name));
    return all.subList(0, Math.min(n, all.size()));
  }
}
