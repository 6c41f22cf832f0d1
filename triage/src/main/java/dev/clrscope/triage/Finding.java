package dev.clrscope.triage;

import java.util.List;

/**
 * One thing wrong with a process, as triage reports it.
 *
 * @param kind what kind of finding: {@code deadlock}, {@code sync-over-async}, ... ({@link Kind})
 * @param severity how bad it is
 * @param title one sentence that says what is wrong
 * @param evidence what it rests on
 * @param next the commands to run next, as a user types them
 */
public record Finding(
    String kind, Severity severity, String title, Evidence evidence, List<String> next) {
  /** Copies the commands. */
  public Finding {
    next = List.copyOf(next);
  }

  /** The kinds of finding, as {@code kind} names them. */
  public static final class Kind {
    public static final String DEADLOCK = "deadlock";
    public static final String SYNC_OVER_ASYNC = "sync-over-async";
    public static final String STARVATION = "threadpool-starvation";
    public static final String POOL_BUSY = "threadpool-busy";
    public static final String FINALIZER = "blocked-finalizer";
    public static final String CRASH = "crash";
    public static final String EXCEPTION = "exception";
    public static final String LEAK_SUSPECT = "leak-suspect";
    public static final String DUPLICATE_STRINGS = "duplicate-strings";
    public static final String EMPTY_COLLECTIONS = "empty-collections";
    public static final String LOH_FREE_SPACE = "loh-free-space";
    public static final String TIMERS = "timers";
    public static final String INVOCATION_LIST = "invocation-list";
    public static final String GC_TIME = "gc-time";
    public static final String EXCEPTION_RATE = "exception-rate";
    public static final String POOL_QUEUE = "threadpool-queue";
    public static final String GROWTH = "memory-growth";

    private Kind() {}
  }
}
