package dev.clrscope.monitor.exceptions;

import dev.clrscope.monitor.HeldRecords;
import dev.clrscope.monitor.RuntimeKeyword;
import dev.clrscope.monitor.methods.MethodAddressMap;
import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.monitor.session.SessionRequest;
import dev.clrscope.nettrace.StackTrace;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.EventFields;
import dev.clrscope.nettrace.events.RuntimeEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimePayload;
import dev.clrscope.symbols.Frame;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Turns the runtime's exception events into one {@link ExceptionRecord} per exception thrown.
 *
 * <p>The runtime raises ExceptionThrown when an exception is thrown (first chance), then, on the
 * same thread, ExceptionCatchStart when a catch handler is entered. Nothing says "unhandled": an
 * exception no handler catches ends the thread or the process without another event. So a record is
 * handed out when its fate is known on its thread: at the catch (caught, with the catching method),
 * or at the end of the stream (uncaught). Exceptions in flight on one thread form a stack (one
 * thrown in a finally while another unwinds): a catch takes the most recent one.
 *
 * <p>The throw site: ExceptionThrown_V1 has ExceptionEIP, but .NET 9 and later dispatch exceptions
 * in managed code and send 0 there; the event's stack starts in that dispatcher
 * (System.Runtime.EH.DispatchEx), so the site is the first named frame outside it. Names come from
 * the method events the assembler is fed ({@link MethodAddressMap}); live, methods compiled before
 * the session (and precompiled framework code) are named only by the rundown at its end, so {@link
 * #summary} names throw sites again once everything has arrived.
 *
 * <p>Not thread-safe: feed it from one thread.
 */
public final class ExceptionAssembler implements EventConsumer {
  /** ExceptionThrown_V1 and ExceptionCatchStart. */
  private static final int EXCEPTION_THROWN = RuntimeEvent.Runtime.EXCEPTION_THROWN;

  private static final int CATCH_START = RuntimeEvent.Runtime.EXCEPTION_CATCH_START;

  /** The runtime's managed exception dispatch (.NET 9+), above the throwing method. */
  static final List<String> DISPATCH_NAMESPACES = List.of("System.Runtime.EH.");

  /**
   * Where a throw is not the user's own: the runtime's dispatch and the framework's libraries. The
   * throw site is the first frame outside them; the framework's frame beside it.
   */
  static final List<String> FRAMEWORK_NAMESPACES =
      List.of("System.", "Microsoft.", "Internal.", "Interop.");

  private static final List<String> NOT_USER_CODE =
      java.util.stream.Stream.concat(DISPATCH_NAMESPACES.stream(), FRAMEWORK_NAMESPACES.stream())
          .toList();

  /** In-flight exceptions kept per thread; beyond, the oldest is handed out as uncaught. */
  private static final int MAX_IN_FLIGHT = 64;

  private final MethodAddressMap methods;
  private final Predicate<String> typeFilter;
  private final boolean keepStacks;
  private final Consumer<ExceptionRecord> sink;
  private final HeldRecords held = new HeldRecords();
  private final Map<Long, Deque<Thrown>> inFlight = new HashMap<>();
  private final Map<SiteKey, Long> bySite = new LinkedHashMap<>();
  private long count;
  private long uncaught;
  private long unhandled;

  /** An exception thrown and not yet caught. */
  private record Thrown(
      Instant time,
      long relativeNanos,
      long threadId,
      RuntimePayload.ExceptionThrown payload,
      StackTrace stack) {}

  /** Where the summary counts: the type and the whole stack, named once all names are known. */
  private record SiteKey(String type, StackTrace stack) {}

  /**
   * The live session that feeds an assembler: the runtime's Exception keyword with stacks, and Jit
   * for the names of methods compiled while it runs, at Verbose (the runtime sends
   * MethodLoadVerbose, the events with names, only at Verbose); with a rundown, so methods compiled
   * before are named in the summary. Live ordering: see {@link
   * MethodAddressMap#namedStacksSession}.
   *
   * @param rundown whether the runtime sends its rundown (the methods it has code for) at the end
   */
  public static SessionRequest sessionRequest(boolean rundown) {
    return sessionRequest(rundown, false);
  }

  /** {@link #sessionRequest(boolean)}, with what source lines take when {@code lines}. */
  public static SessionRequest sessionRequest(boolean rundown, boolean lines) {
    return MethodAddressMap.namedStacksSession(
        RuntimeKeyword.EXCEPTION.mask(), rundown, lines, "clrscope-exceptions-reader");
  }

  /**
   * An assembler.
   *
   * @param methods names methods; the assembler feeds it every event it gets
   * @param typeFilter which exception types to hand out (the summary counts only those)
   * @param keepStacks whether records carry their call stacks
   * @param sink takes each record
   */
  public ExceptionAssembler(
      MethodAddressMap methods,
      Predicate<String> typeFilter,
      boolean keepStacks,
      Consumer<ExceptionRecord> sink) {
    this.methods = methods;
    this.typeFilter = typeFilter;
    this.keepStacks = keepStacks;
    this.sink = sink;
  }

  @Override
  public void accept(TraceEvent e) {
    methods.accept(e);
    if (!RuntimeEvents.RUNTIME_PROVIDER.equals(e.providerName())) {
      return;
    }
    switch (e.eventId()) {
      case EXCEPTION_THROWN -> thrown(e);
      case CATCH_START -> caught(e);
      default -> {}
    }
  }

  private void thrown(TraceEvent e) {
    Optional<RuntimePayload> p = RuntimeEvents.decode(e);
    if (p.isEmpty() || !(p.get() instanceof RuntimePayload.ExceptionThrown x)) {
      return;
    }
    Deque<Thrown> stack = inFlight.computeIfAbsent(e.threadId(), t -> new ArrayDeque<>());
    stack.push(new Thrown(e.timeUtc(), e.relativeNanos(), e.threadId(), x, e.stack()));
    if (stack.size() > MAX_IN_FLIGHT) {
      emit(stack.removeLast(), null);
    }
  }

  private void caught(TraceEvent e) {
    Deque<Thrown> stack = inFlight.get(e.threadId());
    if (stack == null || stack.isEmpty()) {
      // Thrown before the session started.
      return;
    }
    Object name = EventFields.of(e).get("MethodName");
    emit(stack.pop(), name == null ? "" : name.toString());
  }

  /** Hands out every exception still in flight, as uncaught, oldest first. */
  @Override
  public void streamEnded() {
    streamEnded(false);
  }

  /**
   * Hands out every exception still in flight, oldest first: as unhandled when the stream ended by
   * itself (the target exited with them in flight: nothing caught them, and one of them is what
   * ended it), else as uncaught (the session stopped before their catch).
   */
  @Override
  public void streamEnded(boolean endedByItself) {
    List<Thrown> left = new ArrayList<>();
    inFlight.values().forEach(left::addAll);
    inFlight.clear();
    left.sort(Comparator.comparingLong(Thrown::relativeNanos));
    left.forEach(t -> emit(t, null, endedByItself));
    held.release();
  }

  /**
   * Holds every record until the stream ends, and names its frames then: a saved trace's rundown,
   * at its end, names the methods compiled before the recording, so its rows are named as its
   * summary is, in one pass over the file.
   */
  public ExceptionAssembler namesAtEnd() {
    held.holdUntilEnd();
    return this;
  }

  private void emit(Thrown t, String catchingMethod) {
    emit(t, catchingMethod, false);
  }

  private void emit(Thrown t, String catchingMethod, boolean unhandled) {
    RuntimePayload.ExceptionThrown x = t.payload();
    String type = x.exceptionType();
    if (!typeFilter.test(type)) {
      return;
    }
    count++;
    if (catchingMethod == null) {
      uncaught++;
      if (unhandled) {
        this.unhandled++;
      }
    }
    bySite.merge(new SiteKey(type, t.stack()), 1L, Long::sum);
    held.handOut(() -> named(t, catchingMethod, unhandled));
  }

  private void named(Thrown t, String catchingMethod, boolean unhandled) {
    RuntimePayload.ExceptionThrown x = t.payload();
    String type = x.exceptionType();
    Frame fromStack = methods.firstFrameOutside(t.stack(), DISPATCH_NAMESPACES);
    Frame innermost =
        x.exceptionEip() != 0 && methods.nameOrNull(x.exceptionEip()) != null
            ? methods.frame(x.exceptionEip(), false)
            : fromStack;
    // .NET 8's ExceptionEIP is in the caller of the method that threw (its call's return
    // address): the stack's innermost method outside the dispatch is the thrower there. .NET 9
    // and 10 name the same method both ways, and ExceptionEIP the throw's own instruction.
    if (fromStack != null
        && innermost != fromStack
        && !fromStack.name().startsWith("0x")
        && !fromStack.name().equals(innermost.name())) {
      innermost = fromStack;
    }
    Frame user = methods.firstNamedFrameOutside(t.stack(), NOT_USER_CODE);
    // The same method, through the exception's own address or the stack: the user's own throw.
    boolean inFramework =
        user != null && innermost != null && !user.name().equals(innermost.name());
    Frame site = inFramework ? user : innermost;
    Frame thrownIn = inFramework ? innermost : null;
    sink.accept(
        new ExceptionRecord(
            t.time(),
            t.relativeNanos(),
            t.threadId(),
            type,
            x.exceptionMessage(),
            x.exceptionHResult(),
            ExceptionFlag.labels(x.exceptionFlags()),
            site,
            thrownIn,
            keepStacks ? methods.frames(t.stack()) : List.of(),
            catchingMethod != null,
            catchingMethod == null && unhandled,
            catchingMethod));
  }

  /**
   * The summary of every record handed out, with throw sites named from everything the assembler
   * has been fed so far (call it after the stream ended, to have the rundown's names).
   *
   * @param observedNanos how long the session watched, for the rate
   */
  public ExceptionSummary summary(long observedNanos) {
    Map<String, Long> byType = new HashMap<>();
    record Site(String type, Frame site) {}
    Map<Site, Long> sites = new HashMap<>();
    for (Map.Entry<SiteKey, Long> e : bySite.entrySet()) {
      String type = e.getKey().type();
      byType.merge(type, e.getValue(), Long::sum);
      Frame user = methods.firstNamedFrameOutside(e.getKey().stack(), NOT_USER_CODE);
      Frame site =
          user != null ? user : methods.firstFrameOutside(e.getKey().stack(), DISPATCH_NAMESPACES);
      sites.merge(new Site(type, site == null ? Frame.of("-") : site), e.getValue(), Long::sum);
    }
    List<ExceptionSummary.SiteCount> bySiteCounts = new ArrayList<>();
    sites.forEach(
        (k, v) -> bySiteCounts.add(new ExceptionSummary.SiteCount(k.type(), k.site(), v)));
    bySiteCounts.sort(
        Comparator.comparingLong(ExceptionSummary.SiteCount::count)
            .reversed()
            .thenComparing(ExceptionSummary.SiteCount::type)
            .thenComparing(c -> c.throwSite().text()));
    return new ExceptionSummary(
        count,
        uncaught,
        unhandled,
        observedNanos,
        ExceptionSummary.descending(byType),
        bySiteCounts);
  }
}
