package dev.clrscope.dac;

import java.nio.file.Path;

/**
 * The target's .NET runtime and GC, and the DAC reading it.
 *
 * @param fileVersion libcoreclr.so's file version ({@code 10.0.1226.42308}), or null
 * @param commit the runtime's source commit, or null
 * @param productVersion the runtime's version as its directory names it ({@code 10.0.12}), or null
 * @param coreclrPath where the target mapped libcoreclr.so
 * @param coreclrBase where libcoreclr.so is loaded
 * @param buildId libcoreclr.so's build-id in the target's memory, lower-case hex
 * @param dac the DAC in use
 * @param dacSource how it was found: given, runtime directory, cache, downloaded from URL
 * @param serverGc whether the GC is the server GC
 * @param regions whether the GC heap is made of regions (.NET 7+) rather than segments
 * @param heapCount how many GC heaps (1 for workstation GC)
 * @param maxGeneration the oldest generation (2)
 */
public record RuntimeInfo(
    String fileVersion,
    String commit,
    String productVersion,
    String coreclrPath,
    long coreclrBase,
    String buildId,
    Path dac,
    String dacSource,
    boolean serverGc,
    boolean regions,
    int heapCount,
    int maxGeneration) {
  /** The runtime as messages name it: {@code .NET 8.0.31}. */
  public String runtimeName() {
    return ".NET " + (productVersion != null ? productVersion : fileVersion);
  }

  /** {@code Server} or {@code Workstation}. */
  public String gcMode() {
    return serverGc ? "Server" : "Workstation";
  }
}
