package dev.clrscope.dac;

/**
 * A place where the heap walk could not go on in a segment: the rest of that segment, from {@code
 * address} to its end, was not walked.
 *
 * @param kind what stopped the walk
 * @param segment the segment
 * @param address the address where the walk stopped
 * @param bytesNotWalked the bytes of the segment from there to its end
 * @param reason what was wrong there, in words
 */
public record HeapProblem(
    Kind kind, HeapSegment segment, long address, long bytesNotWalked, String reason) {
  /** What can stop a walk. */
  public enum Kind {
    /**
     * An object whose type cannot be read: its method table is not in the dump, or is no method
     * table. Without its type its size is unknown, so the walk cannot step over it.
     */
    TYPE_UNREADABLE(
        "typeUnreadable", "object whose type cannot be read", "objects whose type cannot be read"),
    /** A segment whose memory the dump holds from its start but not to its end: cut short. */
    MEMORY_MISSING(
        "memoryMissing",
        "segment cut short (memory missing from the dump)",
        "segments cut short (memory missing from the dump)"),
    /** A segment none of whose memory is in the dump. */
    SEGMENT_MISSING("segmentMissing", "segment not in the dump", "segments not in the dump"),
    /** An object whose size would take it past its segment's end: damaged memory. */
    OBJECT_PAST_END(
        "objectPastEnd",
        "object that would end past its segment",
        "objects that would end past their segments");

    private final String key;
    private final String one;
    private final String many;

    Kind(String key, String one, String many) {
      this.key = key;
      this.one = one;
      this.many = many;
    }

    /** Its name in JSON: {@code typeUnreadable}. */
    public String key() {
      return key;
    }

    /** {@code n} of it, in words: {@code 2 objects whose type cannot be read}. */
    public String count(int n) {
      return n + " " + (n == 1 ? one : many);
    }
  }

  /** One line: where the walk stopped, why, and what it left. */
  public String describe() {
    return "segment 0x"
        + Long.toHexString(segment.address())
        + ": the walk stopped at 0x"
        + Long.toHexString(address)
        + ", "
        + String.format(java.util.Locale.ROOT, "%,d", bytesNotWalked)
        + " bytes before its end: "
        + reason;
  }
}
