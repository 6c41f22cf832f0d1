package dev.clrscope.nettrace;

/**
 * One framed block: its kind and its bytes, which start at absolute stream offset {@code
 * streamOffset}.
 */
// The data array is the parser's reused block buffer: sharing it, not copying it, is the point.
@SuppressWarnings("ArrayRecordComponent")
record RawBlock(
    BlockKind kind, String name, int version, byte[] data, int length, long streamOffset) {
  PayloadCursor cursor() {
    return new PayloadCursor(data, 0, length, streamOffset);
  }
}
