package dev.clrscope.dac;

/**
 * An object in a heap's finalization queue.
 *
 * @param heap the GC heap's index
 * @param slot the queue slot that holds it
 * @param object the object
 * @param readyForFinalization whether it is unreachable and waits for the finalizer thread (the
 *     f-reachable queue), else registered for finalization and still in use
 */
public record FinalizerEntry(int heap, long slot, long object, boolean readyForFinalization) {}
