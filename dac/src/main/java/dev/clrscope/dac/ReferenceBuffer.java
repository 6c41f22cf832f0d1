package dev.clrscope.dac;

/**
 * Where a walk's references go in bulk ({@link HeapObject#references(ReferenceBuffer)}): an array
 * filled in place and handed on whole when full, so that a reference costs an array store, not a
 * call.
 */
abstract class ReferenceBuffer {
  /** The references so far: {@code slots[0..count)}. */
  long[] slots;

  int count;

  ReferenceBuffer(long[] slots) {
    this.slots = slots;
  }

  /** {@link #slots} is full: hands it on and sets {@link #slots} and {@link #count} to go on. */
  abstract void full();

  final void add(long target) {
    if (count == slots.length) {
      full();
    }
    slots[count++] = target;
  }
}
