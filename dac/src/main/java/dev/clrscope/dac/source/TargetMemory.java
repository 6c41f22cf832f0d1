package dev.clrscope.dac.source;

/**
 * The address space of a target process: a core file's memory or a paused live process's. Reads are
 * positional and may be large (a whole GC region at a time); implementations are safe to call from
 * one thread at a time, the thread that owns the target.
 */
public interface TargetMemory {
  /**
   * Copies up to {@code length} bytes at {@code address} into {@code dst}.
   *
   * @return how many bytes were copied: the readable prefix of the range, 0 when its first byte is
   *     not readable (not in the dump, not mapped)
   */
  int read(long address, byte[] dst, int offset, int length);
}
