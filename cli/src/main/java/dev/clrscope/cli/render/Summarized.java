package dev.clrscope.cli.render;

/**
 * A monitor's summary and how long it watched: the record a summary's fields read, its first line
 * ({@link Watched#fields}) how long it watched and why it stopped.
 *
 * @param s the summary
 * @param watched how long it watched
 * @param <S> the summary's type
 */
public record Summarized<S>(S s, Watched watched) {}
