package dev.clrscope.dac;

import dev.clrscope.symbols.ManagedModule;
import dev.clrscope.symbols.SourceLine;
import dev.clrscope.symbols.SourceLines;

/**
 * Where a managed frame is in its method's IL, as the DAC maps its instruction pointer: what a
 * source line takes ({@link #line}).
 *
 * @param methodToken the method's metadata token (0x06...)
 * @param ilOffset the IL offset of the frame's instruction (for a caller, of its call)
 * @param module the method's module: its path, and the PDB its image in the target names
 */
public record FrameLocation(int methodToken, int ilOffset, ManagedModule module) {
  /** The frame's source line, its PDB found through {@code lines}; null when not found. */
  public SourceLine line(SourceLines lines) {
    return lines.lineOf(module, methodToken, ilOffset);
  }
}
