package dev.clrscope.monitor.alloc;

import dev.clrscope.monitor.RuntimeKeyword;
import dev.clrscope.monitor.methods.MethodAddressMap;
import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.monitor.session.SessionRequest;
import dev.clrscope.nettrace.StackTrace;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimePayload;
import dev.clrscope.symbols.Frame;
import dev.clrscope.symbols.FrameResolver;
import dev.clrscope.symbols.MethodNames;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Allocation sampling from the runtime's GCAllocationTick events (keyword GC, level Verbose): the
 * runtime fires one on the allocation that takes a thread's allocations past about 100 KB since its
 * last tick (per heap: small objects, large objects), with that object's type and size, the amount
 * allocated since the previous tick, and the allocating stack. Ticks are counted per type and per
 * stack; stacks are kept as addresses and named at the end, when the rundown has named every
 * method.
 *
 * <p>Not thread-safe: feed it from one thread.
 */
public final class AllocationSampler implements EventConsumer {
  private static final int ALLOCATION_TICK = RuntimeEvent.Runtime.GC_ALLOCATION_TICK;

  /** AllocationKind: 0 small, 1 large (LOH), 2 pinned (POH, .NET 5+). */
  private static final long KIND_LARGE = 1;

  private record TypeKey(String type, boolean large) {}

  private record StackKey(StackTrace stack, boolean large) {}

  /** ticks, sampled bytes, estimated bytes. */
  private final Map<TypeKey, long[]> byType = new HashMap<>();

  /** ticks, estimated bytes; and ticks per type for the stack's main type. */
  private final Map<StackKey, long[]> byStack = new HashMap<>();

  private final Map<StackKey, Map<String, long[]>> stackTypes = new HashMap<>();
  private long ticks;
  private long estimated;
  private long withoutStack;

  /**
   * A live session for allocation ticks with stacks, and the rundown to name them; with what source
   * lines take when {@code lines}.
   */
  public static SessionRequest sessionRequest(boolean lines) {
    return MethodAddressMap.namedStacksSession(
        RuntimeKeyword.GC.mask(), true, lines, "clrscope-alloc-reader");
  }

  @Override
  public void accept(TraceEvent e) {
    if (e.eventId() != ALLOCATION_TICK
        || !RuntimeEvents.RUNTIME_PROVIDER.equals(e.providerName())) {
      return;
    }
    Optional<RuntimePayload> decoded;
    try {
      decoded = RuntimeEvents.decode(e);
    } catch (RuntimeException ex) {
      return; // one malformed tick is one tick lost
    }
    if (decoded.isEmpty() || !(decoded.get() instanceof RuntimePayload.GcAllocationTick t)) {
      return;
    }
    boolean large = t.allocationKind() == KIND_LARGE;
    long amount = t.allocationAmount64() > 0 ? t.allocationAmount64() : t.allocationAmount();
    String type =
        t.typeName() == null || t.typeName().isEmpty() ? "?" : MethodNames.readable(t.typeName());
    ticks++;
    estimated += amount;
    long[] ty = byType.computeIfAbsent(new TypeKey(type, large), k -> new long[3]);
    ty[0]++;
    ty[1] += t.objectSize();
    ty[2] += amount;
    if (e.stack().depth() == 0) {
      withoutStack++;
      return;
    }
    StackKey key = new StackKey(e.stack(), large);
    long[] st = byStack.computeIfAbsent(key, k -> new long[2]);
    st[0]++;
    st[1] += amount;
    stackTypes.computeIfAbsent(key, k -> new HashMap<>())
        .computeIfAbsent(type, k -> new long[1])[0]++;
  }

  /**
   * The summary, with stacks named by {@code frames} and merged when their frames are the same (two
   * addresses in one method, or in one line of it when frames carry lines).
   *
   * @param topStacks how many stacks to keep per heap
   */
  public AllocationSummary summary(FrameResolver frames, int topStacks) {
    List<TypeAllocations> types = new ArrayList<>();
    byType.forEach((k, v) -> types.add(new TypeAllocations(k.type(), k.large(), v[0], v[1], v[2])));
    types.sort(
        Comparator.comparingLong(TypeAllocations::estimatedBytes)
            .reversed()
            .thenComparing(TypeAllocations::type));

    record Named(List<Frame> frames, boolean large) {}
    Map<Named, long[]> merged = new HashMap<>();
    Map<Named, Map<String, long[]>> mergedTypes = new HashMap<>();
    byStack.forEach(
        (k, v) -> {
          Frame[] names = new Frame[k.stack().depth()];
          for (int i = 0; i < names.length; i++) {
            names[i] = frames.frame(k.stack().frame(i), i > 0);
          }
          Named n = new Named(Arrays.asList(names), k.large());
          long[] m = merged.computeIfAbsent(n, x -> new long[2]);
          m[0] += v[0];
          m[1] += v[1];
          Map<String, long[]> mt = mergedTypes.computeIfAbsent(n, x -> new HashMap<>());
          stackTypes
              .get(k)
              .forEach((type, c) -> mt.computeIfAbsent(type, x -> new long[1])[0] += c[0]);
        });
    List<StackAllocations> stacks = new ArrayList<>();
    merged.forEach(
        (n, v) -> {
          String top =
              mergedTypes.get(n).entrySet().stream()
                  .max(
                      Comparator.comparingLong((Map.Entry<String, long[]> x) -> x.getValue()[0])
                          .thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
                  .map(Map.Entry::getKey)
                  .orElse("?");
          stacks.add(new StackAllocations(List.copyOf(n.frames()), n.large(), top, v[0], v[1]));
        });
    stacks.sort(
        Comparator.comparingLong(StackAllocations::estimatedBytes)
            .reversed()
            .thenComparing(s -> s.frames().toString()));
    List<StackAllocations> kept = new ArrayList<>();
    int small = 0;
    int large = 0;
    for (StackAllocations s : stacks) {
      if (s.large() ? large++ < topStacks : small++ < topStacks) {
        kept.add(s);
      }
    }
    return new AllocationSummary(types, kept, ticks, estimated, withoutStack);
  }

  /** Every stack with its ticks, named, for a flame graph: frames innermost first. */
  public List<StackAllocations> allStacks(FrameResolver frames) {
    return summary(frames, Integer.MAX_VALUE).stacks();
  }
}
