package dev.clrscope.monitor.profile;

import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.nettrace.PayloadCursor;
import dev.clrscope.nettrace.StackTrace;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.symbols.FrameResolver;
import dev.clrscope.symbols.SourceLine;
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
 * once. When the frames carry source lines ({@link FrameResolver#hasLines}), samples are also
 * counted per site (a method and a line): a method's row carries its hottest line, and {@link
 * #topLines} ranks the lines themselves.
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
   * The {@code n} methods with the most samples, exclusive or inclusive, most first (ties by name);
   * with lines, each with the line where most of its samples (in that order's sense) fell.
   */
  public List<MethodSamples> top(int n, boolean byInclusive) {
    boolean lines = frames.hasLines();
    Counts c = count(lines);
    int names = Math.min(frames.idLimit(), c.byName.exclusive.length);
    // The hottest site of each method: most samples in the order's sense, then the lower line.
    int[] hottest = new int[names];
    if (lines) {
      for (int site = 1; site < c.siteLimit; site++) {
        if (c.bySite.inclusive[site] == 0 || frames.siteLine(site) == null) {
          continue;
        }
        int name = frames.siteName(site);
        int best = hottest[name];
        if (best == 0 || hotter(c.bySite, site, best, byInclusive)) {
          hottest[name] = site;
        }
      }
    }
    List<MethodSamples> methods = new ArrayList<>();
    for (int id = 1; id < names; id++) {
      if (c.byName.inclusive[id] > 0) {
        methods.add(
            c.byName.row(
                frames.name(id), hottest[id] == 0 ? null : frames.siteLine(hottest[id]), id));
      }
    }
    return ranked(methods, n, byInclusive);
  }

  /** Whether {@code site} has more samples than {@code best} (the same: the lower line). */
  private boolean hotter(Tally t, int site, int best, boolean byInclusive) {
    long mine = byInclusive ? t.inclusive[site] : t.exclusive[site];
    long theirs = byInclusive ? t.inclusive[best] : t.exclusive[best];
    return mine > theirs
        || (mine == theirs && frames.siteLine(site).line() < frames.siteLine(best).line());
  }

  /**
   * The {@code n} source lines with the most samples: each a method and a line of it (a method's
   * samples without a line count as one row of their own), exclusive or inclusive (once per sample
   * per line), most first.
   */
  public List<MethodSamples> topLines(int n, boolean byInclusive) {
    Counts c = count(true);
    List<MethodSamples> sites = new ArrayList<>();
    for (int site = 1; site < c.siteLimit; site++) {
      if (c.bySite.inclusive[site] > 0) {
        sites.add(c.bySite.row(frames.name(frames.siteName(site)), frames.siteLine(site), site));
      }
    }
    return ranked(sites, n, byInclusive);
  }

  private static List<MethodSamples> ranked(List<MethodSamples> rows, int n, boolean byInclusive) {
    Comparator<MethodSamples> order =
        byInclusive
            ? Comparator.comparingLong(MethodSamples::inclusive)
                .reversed()
                .thenComparing(Comparator.comparingLong(MethodSamples::exclusive).reversed())
            : Comparator.comparingLong(MethodSamples::exclusive)
                .reversed()
                .thenComparing(Comparator.comparingLong(MethodSamples::inclusive).reversed());
    rows.sort(
        order
            .thenComparing(MethodSamples::name)
            .thenComparingInt(m -> m.line() == null ? Integer.MAX_VALUE : m.line().line()));
    return rows.subList(0, Math.min(n, rows.size()));
  }

  /** Samples per id (a name's or a site's): exclusive, inclusive, and of those on CPU. */
  private static final class Tally {
    long[] exclusive = new long[1024];
    long[] exclusiveCpu = new long[1024];
    long[] inclusive = new long[1024];
    long[] inclusiveCpu = new long[1024];

    /** The stack number at which an id was last counted inclusively: once per stack. */
    long[] seenAt = new long[1024];

    /** Counts a stack's samples for the frame with this id. */
    void add(int id, boolean innermost, long all, long onCpu, long stamp) {
      if (id >= exclusive.length) {
        int size = Math.max(id + 1, exclusive.length * 2);
        exclusive = Arrays.copyOf(exclusive, size);
        exclusiveCpu = Arrays.copyOf(exclusiveCpu, size);
        inclusive = Arrays.copyOf(inclusive, size);
        inclusiveCpu = Arrays.copyOf(inclusiveCpu, size);
        seenAt = Arrays.copyOf(seenAt, size);
      }
      if (innermost) {
        exclusive[id] += all;
        exclusiveCpu[id] += onCpu;
      }
      if (seenAt[id] != stamp) {
        seenAt[id] = stamp;
        inclusive[id] += all;
        inclusiveCpu[id] += onCpu;
      }
    }

    MethodSamples row(String name, SourceLine line, int id) {
      return new MethodSamples(
          name, line, exclusive[id], exclusiveCpu[id], inclusive[id], inclusiveCpu[id]);
    }
  }

  /** Samples per method name and, with lines, per site (a method and a line). */
  private static final class Counts {
    final Tally byName = new Tally();
    final Tally bySite = new Tally();
    int siteLimit;
  }

  /**
   * Counts every distinct stack's samples per name and, with {@code lines}, per site: a frame below
   * the innermost is a return address, whose line is its call's. Without lines, one id lookup per
   * frame.
   */
  private Counts count(boolean lines) {
    Counts c = new Counts();
    long stamp = 0;
    for (Map.Entry<StackTrace, long[]> s : byStack.entrySet()) {
      StackTrace stack = s.getKey();
      long all = s.getValue()[0];
      long onCpu = s.getValue()[1];
      stamp++;
      for (int i = 0; i < stack.depth(); i++) {
        int name;
        if (lines) {
          int site = frames.siteId(stack.frame(i), i > 0);
          name = frames.siteName(site);
          c.bySite.add(site, i == 0, all, onCpu, stamp);
        } else {
          name = frames.frameId(stack.frame(i));
        }
        c.byName.add(name, i == 0, all, onCpu, stamp);
      }
    }
    c.siteLimit = Math.min(frames.siteLimit(), c.bySite.exclusive.length);
    return c;
  }
}
