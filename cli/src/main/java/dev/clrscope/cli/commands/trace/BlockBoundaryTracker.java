package dev.clrscope.cli.commands.trace;

import java.nio.charset.StandardCharsets;

/**
 * Follows the FastSerialization framing of a NetTrace V4/V5 stream as its bytes go by, without
 * decoding any block, to know at every moment where the last complete object ends. A trace cut off
 * anywhere (the target died, the rundown was abandoned) becomes valid again by truncating it there
 * and appending the NullReference end tag.
 *
 * <pre>
 *  "Nettrace" i32 20 "!FastSerialization.1"                      preamble, 32 bytes
 *  object: Begin(4|5) typeObject data End(6)                      then NullReference(1) at the end
 *  typeObject: Begin NullReference i32 version i32 minVersion i32 nameLength name End
 *  data: the Trace object has 48 bytes; a block has i32 size, zero padding to a 4-byte absolute
 *        offset, size bytes
 * </pre>
 *
 * Anything else (netperf V3, NetTrace V6, a corrupt stream) makes the tracker give up: {@link
 * #isUnderstood()} turns false and the boundary stays where it was.
 */
public final class BlockBoundaryTracker {
  private static final byte[] PREAMBLE =
      "Nettrace\u0014\u0000\u0000\u0000!FastSerialization.1".getBytes(StandardCharsets.ISO_8859_1);

  private enum State {
    PREAMBLE,
    OBJECT_TAG,
    TYPE_BEGIN,
    TYPE_NULL,
    TYPE_FIELDS,
    TYPE_NAME,
    TYPE_END,
    BLOCK_SIZE,
    PADDING,
    DATA,
    OBJECT_END,
    ENDED,
    LOST
  }

  private State state = State.PREAMBLE;
  private long offset;
  private long lastBoundary;
  private boolean headerSeen;

  /** Bytes still needed (or to skip) in the current state. */
  private long need = PREAMBLE.length;

  private final byte[] field = new byte[256];
  private int fieldLength;
  private boolean traceObject;
  private int blockSize;

  /** Feeds the next bytes of the stream. */
  public void accept(byte[] b, int off, int len) {
    int i = off;
    int end = off + len;
    while (i < end && state != State.ENDED && state != State.LOST) {
      switch (state) {
        case DATA, PADDING -> {
          long skip = Math.min(need, end - i);
          i += (int) skip;
          offset += skip;
          need -= skip;
          if (need == 0) {
            if (state == State.PADDING) {
              enterData();
            } else {
              state = State.OBJECT_END;
              need = 1;
            }
          }
        }
        default -> {
          byte v = b[i++];
          offset++;
          step(v);
        }
      }
    }
  }

  private void step(byte v) {
    int u = v & 0xFF;
    switch (state) {
      case PREAMBLE -> {
        if (v != PREAMBLE[PREAMBLE.length - (int) need]) {
          state = State.LOST;
          return;
        }
        if (--need == 0) {
          state = State.OBJECT_TAG;
        }
      }
      case OBJECT_TAG -> {
        if (u == 1 && headerSeen) {
          state = State.ENDED;
        } else if (u == 4 || u == 5) {
          state = State.TYPE_BEGIN;
        } else {
          state = State.LOST;
        }
      }
      case TYPE_BEGIN -> state = (u == 4 || u == 5) ? State.TYPE_NULL : State.LOST;
      case TYPE_NULL -> {
        state = u == 1 ? State.TYPE_FIELDS : State.LOST;
        fieldLength = 0;
      }
      case TYPE_FIELDS -> {
        field[fieldLength++] = v;
        if (fieldLength == 12) {
          int nameLength = i32(field, 8);
          if (nameLength <= 0 || nameLength > field.length) {
            state = State.LOST;
            return;
          }
          need = nameLength;
          fieldLength = 0;
          state = State.TYPE_NAME;
        }
      }
      case TYPE_NAME -> {
        field[fieldLength++] = v;
        if (--need == 0) {
          traceObject = "Trace".equals(new String(field, 0, fieldLength, StandardCharsets.UTF_8));
          if (traceObject == headerSeen) {
            // The Trace object comes first and only once.
            state = State.LOST;
            return;
          }
          state = State.TYPE_END;
        }
      }
      case TYPE_END -> {
        if (u != 6) {
          state = State.LOST;
          return;
        }
        if (traceObject) {
          state = State.DATA;
          need = 48;
        } else {
          state = State.BLOCK_SIZE;
          fieldLength = 0;
        }
      }
      case BLOCK_SIZE -> {
        field[fieldLength++] = v;
        if (fieldLength == 4) {
          int size = i32(field, 0);
          if (size < 0) {
            state = State.LOST;
            return;
          }
          blockSize = size;
          need = (4 - (offset & 3)) & 3;
          state = State.PADDING;
          if (need == 0) {
            enterData();
          }
        }
      }
      case OBJECT_END -> {
        if (u != 6) {
          state = State.LOST;
          return;
        }
        headerSeen = true;
        lastBoundary = offset;
        state = State.OBJECT_TAG;
      }
      default -> state = State.LOST;
    }
  }

  private void enterData() {
    need = blockSize;
    state = State.DATA;
    if (need == 0) {
      state = State.OBJECT_END;
      need = 1;
    }
  }

  private static int i32(byte[] b, int at) {
    return (b[at] & 0xFF)
        | (b[at + 1] & 0xFF) << 8
        | (b[at + 2] & 0xFF) << 16
        | (b[at + 3] & 0xFF) << 24;
  }

  /** The offset just after the last complete object (the Trace object or a block); 0 if none. */
  public long lastCompleteObjectEnd() {
    return lastBoundary;
  }

  /** Whether the trace header (the Trace object) has been seen whole. */
  public boolean hasHeader() {
    return headerSeen;
  }

  /** Whether the stream's end tag has been seen: the stream is complete. */
  public boolean hasEnded() {
    return state == State.ENDED;
  }

  /** Whether the stream still looks like NetTrace V4/V5 framing. */
  public boolean isUnderstood() {
    return state != State.LOST;
  }

  /** Bytes seen so far. */
  public long bytesSeen() {
    return offset;
  }
}
