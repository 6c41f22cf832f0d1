package dev.clrscope.triage;

/**
 * What a short watch of a live process saw (the runtime's counters, through the session runner):
 * the live-only signs of trouble.
 *
 * @param seconds how long it watched
 * @param plannedSeconds how long it was to watch ({@code --duration})
 * @param cutShortBy what ended the watch before its time (the user's {@code Ctrl+C}), or null when
 *     it ran its length (or the process exited)
 * @param gcPausePercent the share of that time the process was paused in GC, in percent; null when
 *     not reported
 * @param exceptionsPerSecond exceptions thrown per second; null when not reported
 * @param queueLength the thread pool's queue length at the end; null when not reported
 * @param minQueueLength its smallest value over the watch; null when not reported
 * @param threadCount the thread pool's threads at the end; null when not reported
 * @param samples how many intervals the counters reported
 */
public record LiveSample(
    double seconds,
    double plannedSeconds,
    String cutShortBy,
    Double gcPausePercent,
    Double exceptionsPerSecond,
    Double queueLength,
    Double minQueueLength,
    Double threadCount,
    int samples) {}
