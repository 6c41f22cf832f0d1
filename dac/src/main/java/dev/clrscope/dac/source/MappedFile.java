package dev.clrscope.dac.source;

/**
 * A file the process had mapped: {@code [start, end)} of its address space shows the file from byte
 * {@code fileOffset}, as the core's {@code NT_FILE} note or {@code /proc/PID/maps} lists it.
 */
public record MappedFile(long start, long end, long fileOffset, String path) {
  /** Whether {@code address} lies in this mapping. */
  public boolean contains(long address) {
    return Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
  }

  /** The file's name, without its directory. */
  public String fileName() {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
