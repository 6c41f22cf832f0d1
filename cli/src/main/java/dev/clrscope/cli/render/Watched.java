package dev.clrscope.cli.render;

import java.util.List;
import java.util.function.Function;

/**
 * How long a live command watched and why it stopped: the first line of every monitor's summary
 * ({@code Watched 12.3 s (stopped: the target exited)}), {@code observedSeconds} and {@code
 * stoppedBecause} in JSON.
 *
 * @param observedNanos how long it watched
 * @param stoppedBecause why it stopped, or {@code null} (a saved trace read to its end)
 */
public record Watched(long observedNanos, String stoppedBecause) {
  /** The fields of the part of an {@code R} that is its {@link Watched}. */
  public static <R> List<Field<R>> fields(Function<? super R, Watched> part) {
    return List.of(
        Field.<R>of("observedSeconds", "Watched", 0, Unit.SECONDS, r -> part.apply(r).seconds())
            .cell(r -> part.apply(r).text()),
        Field.<R>data("stoppedBecause", Unit.TEXT, r -> part.apply(r).stoppedBecause()));
  }

  /** {@link #fields}, then {@code rest}: a summary's fields, its first line how long it watched. */
  public static <R> List<Field<R>> fieldsThen(
      Function<? super R, Watched> part, List<Field<R>> rest) {
    List<Field<R>> all = new java.util.ArrayList<>(fields(part));
    all.addAll(rest);
    return all;
  }

  /** How long it watched, in seconds. */
  public double seconds() {
    return observedNanos / 1e9;
  }

  /** {@code 12.3 s (stopped: the target exited)}. */
  public String text() {
    return Unit.duration(observedNanos)
        + (stoppedBecause == null ? "" : " (stopped: " + stoppedBecause + ")");
  }
}
