package dev.clrscope.ipc.client;

/**
 * A request for a core dump.
 *
 * @param path where the runtime writes the dump, as the target sees the file system
 * @param type what the dump holds
 * @param diagnostics log createdump's progress in the target's console
 * @param verbose more detailed createdump logging (GenerateCoreDump2 and later)
 * @param crashReport also write a JSON crash report beside the dump (GenerateCoreDump2 and later)
 */
public record DumpRequest(
    String path, DumpType type, boolean diagnostics, boolean verbose, boolean crashReport) {
  /** The flags field of GenerateCoreDump2 and 3: 1 logging, 2 verbose logging, 4 crash report. */
  int flags() {
    return (diagnostics ? 1 : 0) | (verbose ? 2 : 0) | (crashReport ? 4 : 0);
  }

  /** Whether GenerateCoreDump version 1, whose last field is a plain boolean, can express it. */
  boolean fitsVersion1() {
    return !verbose && !crashReport;
  }
}
