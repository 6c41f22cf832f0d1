package dev.clrscope.nettrace;

/**
 * What an unordered visit ({@link UnorderedVisit}) makes of a trace's events: a tally that takes
 * one event block's events, in no particular order and on whichever thread decodes that block, and
 * is then added to the trace's total in file order. Each event is given by its fields, not as an
 * object: a visit of ten million events makes none.
 *
 * @param <T> the tally's own type
 */
public interface EventTally<T extends EventTally<T>> {
  /**
   * One event: its metadata (the id, provider and name it was declared with, or a V6 label's
   * override), OS thread id, timestamp (QPC ticks, as {@link TraceEvent#timestamp()}) and payload
   * bytes.
   */
  void event(EventMetadata metadata, long threadId, long timestamp, int payloadLength);

  /** Adds the events of {@code block}, a later block's tally, to this one. */
  void add(T block);

  /** Forgets every event, so the tally can take another block. */
  void clear();
}
