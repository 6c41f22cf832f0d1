package dev.clrscope.dac;

/** Receives the non-null references an object holds. */
@FunctionalInterface
public interface ReferenceVisitor {
  /**
   * @param target the referenced object's address
   * @param offset where in the referencing object the reference is, from its start
   */
  void reference(long target, long offset);
}
