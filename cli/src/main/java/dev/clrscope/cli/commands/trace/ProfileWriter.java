package dev.clrscope.cli.commands.trace;

import dev.clrscope.nettrace.TraceEvent;
import java.io.IOException;

/**
 * One output format of {@code trace convert}, fed in timestamp order. Writers hold no more than
 * their format needs between samples (open frames, aggregated stacks, frame names), never the
 * trace.
 */
interface ProfileWriter extends AutoCloseable {
  /** A thread sample. */
  void sample(StackSample sample) throws IOException;

  /** Any other event (its time in ms since the trace's start). */
  default void event(TraceEvent e, double timeMs) throws IOException {}

  /** Completes the output; the last call. */
  void finish() throws IOException;

  /** Releases temporary resources, whether or not {@link #finish} ran. */
  @Override
  default void close() throws IOException {}
}
