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

  /** A short description for messages: {@code core /path} or {@code process 123}. */
  String describe();

  /** Releases the target (a live process runs on). */
  @Override
  void close();
}
