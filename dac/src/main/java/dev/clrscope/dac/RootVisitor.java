package dev.clrscope.dac;

/** Receives roots, on the thread that owns the target. */
@FunctionalInterface
public interface RootVisitor {
  void visit(Root root);
}
