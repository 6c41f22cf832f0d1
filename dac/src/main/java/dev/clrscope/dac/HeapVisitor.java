package dev.clrscope.dac;

/**
 * Receives every object of a heap walk, in address order within each segment. Called on the thread
 * that owns the target; the {@link HeapObject} is reused for the next object, so keep what you need
 * from it, not it.
 */
@FunctionalInterface
public interface HeapVisitor {
  void visit(HeapObject object);
}
