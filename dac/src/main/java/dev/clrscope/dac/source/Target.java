package dev.clrscope.dac.source;

import java.util.List;

/**
 * What the DAC reads from: a core file or a paused live process. Used from the thread that owns the
 * target only.
 */
public interface Target extends TargetMemory, AutoCloseable {
  /** The process id. */
  int pid();

  /** The files mapped into the process. */
  List<MappedFile> mappedFiles();

  /** Every thread's registers. */
  List<ThreadRegisters> threads();

  /**
   * The thread a fatal signal stopped and the signal, {@code {threadId, signal}}, as a core records
   * it; null when none did (a live process, a dump taken on request).
   */
  default int[] signalled() {
    return null;
  }

  /** A short description for messages: {@code core /path} or {@code process 123}. */
  String describe();

  /** Releases the target (a live process runs on). */
  @Override
  void close();
}
