package dev.clrscope.cli.render;

/**
 * Records drawn as they come while a command works (a live session, a trace read from a file), then
 * a summary: the command declares the stream and hands over the work that produces them; the
 * renderer of the run runs that work with a sink in its format, and ends the stream with the
 * summary the work returns. A JSON document stays whole however the work ends.
 *
 * @param stream what the records are
 * @param work produces the records into a sink and returns the summary ({@code null} for none)
 * @param <R> the records
 */
public record Records<R>(Renderer.Stream<R> stream, Work<R> work) implements Result {
  /** The work that produces the records. */
  @FunctionalInterface
  public interface Work<R> {
    /** Writes the records into {@code sink} as they come; returns the summary, or null. */
    Report run(Sink<R> sink);
  }

  /** Where the work writes its records. */
  public interface Sink<R> {
    /** Draws what comes before the first record now, so a watcher sees the columns at once. */
    void start();

    /** Draws one record (from any one thread at a time). */
    void write(R record);

    /**
     * Draws a live view again (a table's board redrawn in place); nothing in a format that only
     * appends records.
     */
    default void redraw() {}
  }

  /** Records of {@code stream}, produced by {@code work}. */
  public static <R> Records<R> of(Renderer.Stream<R> stream, Work<R> work) {
    return new Records<>(stream, work);
  }
}
