package dev.clrscope.monitor.contention;

import dev.clrscope.monitor.DurationSample;
import dev.clrscope.monitor.methods.MethodAddressMap;
import dev.clrscope.nettrace.StackTrace;
import dev.clrscope.symbols.Frame;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a session saw of blocked threads: per kind (lock, wait) and per waiting method and stack,
 * the count, total time blocked and its distribution.
 *
 * @param observedNanos how long the session watched
 * @param byKind per kind ({@code lock}, {@code wait}): every wait of that kind together
 * @param byStack per kind and waiting method (or whole waiting stack, if asked), most total time
 *     first
 * @param inProgress the waits begun while the session watched and not ended when it stopped, each
 *     with its time so far (up to the session's last event), longest first; a wait begun before the
 *     session started sent its start event before it and is not among them
 */
public record BlockedSummary(
    long observedNanos, List<Group> byKind, List<Group> byStack, List<BlockedRecord> inProgress) {

  /**
   * The waits of one kind (and one stack).
   *
   * @param kind {@code lock} or {@code wait}
   * @param method the waiting method (and line, where known), or {@code null} in a per-kind group
   * @param stack the waiting stack, innermost first, or empty in a per-kind or per-method group
   * @param count how many waits
   * @param totalMillis their total time
   * @param p50Millis the median (nearest rank)
   * @param p95Millis the 95th percentile (nearest rank)
   * @param maxMillis the longest
   */
  public record Group(
      String kind,
      Frame method,
      List<Frame> stack,
      long count,
      double totalMillis,
      double p50Millis,
      double p95Millis,
      double maxMillis) {
    /** Copies the stack. */
    public Group {
      stack = List.copyOf(stack);
    }
  }

  /** Copies the lists. */
  public BlockedSummary {
    byKind = List.copyOf(byKind);
    byStack = List.copyOf(byStack);
    inProgress = List.copyOf(inProgress);
  }

  /** Collects waits as they come; names their stacks only when built. */
  static final class Accumulator {
    private record Key(String kind, StackTrace stack) {}

    private final Map<Key, DurationSample> durations = new LinkedHashMap<>();

    void add(String kind, StackTrace stack, long nanos) {
      durations.computeIfAbsent(new Key(kind, stack), k -> new DurationSample()).add(nanos);
    }

    /**
     * The summary, named from {@code methods} as they are now.
     *
     * @param wholeStacks group by the whole waiting stack; else by the waiting method alone
     */
    BlockedSummary build(
        MethodAddressMap methods,
        long observedNanos,
        boolean wholeStacks,
        List<BlockedRecord> inProgress) {
      Map<String, DurationSample> kinds = new LinkedHashMap<>();
      record Named(String kind, Frame method, List<Frame> stack) {}
      Map<Named, DurationSample> stacks = new HashMap<>();
      for (Map.Entry<Key, DurationSample> e : durations.entrySet()) {
        String kind = e.getKey().kind();
        kinds.computeIfAbsent(kind, k -> new DurationSample()).addAll(e.getValue());
        StackTrace stack = e.getKey().stack();
        Frame method = methods.firstFrameOutside(stack, ContentionAssembler.RUNTIME_NAMESPACES);
        Named key =
            new Named(
                kind,
                method == null ? Frame.of("-") : method,
                wholeStacks ? methods.frames(stack) : List.of());
        stacks.computeIfAbsent(key, k -> new DurationSample()).addAll(e.getValue());
      }
      List<Group> byKind = new ArrayList<>();
      for (String kind : List.of(BlockedRecord.LOCK, BlockedRecord.WAIT)) {
        if (kinds.containsKey(kind)) {
          byKind.add(group(kind, null, List.of(), kinds.get(kind)));
        }
      }
      List<Group> byStack = new ArrayList<>();
      stacks.forEach((k, v) -> byStack.add(group(k.kind(), k.method(), k.stack(), v)));
      byStack.sort(
          Comparator.comparingDouble(Group::totalMillis)
              .reversed()
              .thenComparing(Group::kind)
              .thenComparing(g -> g.method().text()));
      return new BlockedSummary(observedNanos, byKind, byStack, inProgress);
    }

    private static Group group(
        String kind, Frame method, List<Frame> stack, DurationSample sample) {
      DurationSample.Stats s = sample.stats();
      return new Group(
          kind,
          method,
          stack,
          s.count(),
          s.totalMillis(),
          s.p50Millis(),
          s.p95Millis(),
          s.maxMillis());
    }
  }
}
