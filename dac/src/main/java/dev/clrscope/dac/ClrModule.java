package dev.clrscope.dac;

/**
 * A loaded module (an assembly's manifest module, for .NET Core).
 *
 * @param address the runtime's Module
 * @param assembly the runtime's Assembly
 * @param name its file's path, or the assembly's name for modules loaded from memory
 * @param imageBase where its image is mapped, or 0
 * @param dynamic whether it was emitted at run time (Reflection.Emit)
 */
public record ClrModule(long address, long assembly, String name, long imageBase, boolean dynamic) {
  /** The file name without its directory. */
  public String fileName() {
    int slash = name.lastIndexOf('/');
    return slash < 0 ? name : name.substring(slash + 1);
  }
}
