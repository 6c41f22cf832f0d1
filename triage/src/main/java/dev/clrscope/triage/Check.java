package dev.clrscope.triage;

/**
 * What triage looked at, found wrong or not: the report's answer to "nothing found, but what was
 * checked?".
 *
 * @param area what was checked: {@code deadlocks}, {@code thread pool}, ...
 * @param result what it came to, in words: {@code 12 threads, 1 waiting for a lock: no cycle}
 */
public record Check(String area, String result) {}
