package dev.clrscope.nettrace;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The framing layer: finds the stream header, the trace header and then one block at a time, for
 * both container styles.
 *
 * <pre>
 *  V3:     i32 20 "!FastSerialization.1" object* NullReference
 *  V4/V5:  "Nettrace" i32 20 "!FastSerialization.1" object* NullReference
 *  V6:     "Nettrace" u32 0 u32 major u32 minor block*   (ends with an EndOfStream block)
 *
 *  object: Begin(4|5) type data End(6)
 *  type:   Begin(4|5) NullReference(1) i32 version i32 minReaderVersion i32 nameLen name End(6)
 *  data of a block object: i32 size, zero padding to a 4-byte absolute offset, size bytes
 *  data of the Trace object: 48 bytes (see TraceHeader)
 *
 *  V6 block: u32 header (size = h &amp; 0xFFFFFF, kind = h &gt;&gt;&gt; 24), size bytes, no padding
 * </pre>
 */
final class BlockFraming {
  private static final Logger log = LoggerFactory.getLogger(BlockFraming.class);

  /** "Nettrace" in ASCII. */
  static final byte[] NETTRACE_MAGIC = "Nettrace".getBytes(StandardCharsets.US_ASCII);

  /** The FastSerialization stream signature, preceded by its length (20) as an i32. */
  static final String FAST_SERIALIZATION_SIGNATURE = "!FastSerialization.1";

  /** Upper bound on a block; the runtime writes about 100 KB, V6 cannot exceed 16 MB. */
  static final int MAX_BLOCK_SIZE = 1 << 26;

  /** Longest type name accepted in a FastSerialization type object. */
  static final int MAX_TYPE_NAME = 256;

  /** Bytes of the V3-V5 Trace object data. */
  static final int TRACE_OBJECT_SIZE = 48;

  private final ByteSource src;
  private final int formatVersion;
  private final TraceHeader header;
  private boolean ended;
  private byte[] scratch;

  private BlockFraming(ByteSource src) {
    this.src = src;
    long at = src.position();
    byte[] first = new byte[4];
    src.readFully(first, 0, 4, "stream signature");
    if (matches(first, NETTRACE_MAGIC, 0)) {
      byte[] rest = new byte[4];
      src.readFully(rest, 0, 4, "'Nettrace' magic");
      if (!matches(rest, NETTRACE_MAGIC, 4)) {
        throw new NetTraceFormatException(at, "expected 'Nettrace' magic");
      }
      long afterMagic = src.position();
      int next = src.readI32("FastSerialization signature length or V6 reserved zero");
      if (next == 0) {
        int major = src.readI32("V6 major version");
        src.readI32("V6 minor version");
        if (major != 6) {
          throw new NetTraceFormatException(
              afterMagic + 4, "unsupported NetTrace major version " + major + " (expected 6)");
        }
        formatVersion = 6;
        header = readV6TraceBlock();
      } else {
        readSignatureAfterLength(next, afterMagic);
        header = readTraceObject(true);
        formatVersion = header.formatVersion();
      }
    } else {
      int len =
          (first[0] & 0xFF)
              | (first[1] & 0xFF) << 8
              | (first[2] & 0xFF) << 16
              | (first[3] & 0xFF) << 24;
      if (len != FAST_SERIALIZATION_SIGNATURE.length()) {
        throw new NetTraceFormatException(
            at, "expected 'Nettrace' magic or a FastSerialization header (netperf)");
      }
      readSignatureAfterLength(len, at);
      header = readTraceObject(false);
      formatVersion = header.formatVersion();
    }
    if (log.isDebugEnabled()) {
      log.debug(
          "{} stream, format V{}: pointer size {}, pid {}, {} processors, sync time {}"
              + " (QPC frequency {} Hz){}",
          formatVersion == 3 ? "netperf" : "nettrace",
          formatVersion,
          header.pointerSize(),
          header.processId(),
          header.processorCount(),
          header.syncTimeUtc(),
          header.qpcFrequency(),
          header.keyValues().isEmpty() ? "" : ", header values " + header.keyValues());
    }
  }

  static BlockFraming open(ByteSource src) {
    try {
      return new BlockFraming(src);
    } catch (NetTraceFormatException e) {
      log.debug("no trace header: {}", e.getMessage());
      throw e;
    }
  }

  TraceHeader header() {
    return header;
  }

  int formatVersion() {
    return formatVersion;
  }

  private static boolean matches(byte[] b, byte[] magic, int from) {
    for (int i = 0; i < b.length; i++) {
      if (b[i] != magic[from + i]) {
        return false;
      }
    }
    return true;
  }

  private void readSignatureAfterLength(int len, long at) {
    if (len != FAST_SERIALIZATION_SIGNATURE.length()) {
      throw new NetTraceFormatException(
          at, "expected FastSerialization signature length 20, found " + len);
    }
    byte[] sig = new byte[len];
    src.readFully(sig, 0, len, "FastSerialization signature");
    if (!FAST_SERIALIZATION_SIGNATURE.equals(new String(sig, StandardCharsets.US_ASCII))) {
      throw new NetTraceFormatException(at + 4, "expected '" + FAST_SERIALIZATION_SIGNATURE + "'");
    }
  }

  private void expectTag(FastSerializationTag tag, String what) {
    long at = src.position();
    int t = src.readU8(what);
    if (t != tag.code) {
      throw new NetTraceFormatException(
          at, "expected " + tag + " tag (" + tag.code + ") " + what + ", found " + t);
    }
  }

  /** Reads a type object; returns {name, version}. */
  private Object[] readTypeObject() {
    long at = src.position();
    int begin = src.readU8("type object begin tag");
    if (!FastSerializationTag.isBegin(begin)) {
      throw new NetTraceFormatException(
          at, "expected BeginObject tag (4 or 5) of a type, found " + begin);
    }
    expectTag(FastSerializationTag.NULL_REFERENCE, "as the type of a type");
    int version = src.readI32("type version");
    src.readI32("minimum reader version");
    long lenAt = src.position();
    int len = src.readI32("type name length");
    if (len <= 0 || len > MAX_TYPE_NAME) {
      throw new NetTraceFormatException(
          lenAt, "type name length " + len + " outside 1.." + MAX_TYPE_NAME);
    }
    byte[] name = new byte[len];
    src.readFully(name, 0, len, "type name");
    expectTag(FastSerializationTag.END_OBJECT, "after type object");
    return new Object[] {new String(name, StandardCharsets.UTF_8), version};
  }

  private TraceHeader readTraceObject(boolean isNetTrace) {
    long at = src.position();
    int begin = src.readU8("Trace object begin tag");
    if (!FastSerializationTag.isBegin(begin)) {
      throw new NetTraceFormatException(
          at, "expected BeginObject tag (4 or 5) of the Trace object, found " + begin);
    }
    long typeAt = src.position();
    Object[] type = readTypeObject();
    if (!"Trace".equals(type[0])) {
      throw new NetTraceFormatException(
          typeAt, "expected type 'Trace' first, found '" + type[0] + "'");
    }
    int version = (Integer) type[1];
    if (version < 3 || version > 5 || (version >= 4) != isNetTrace) {
      throw new NetTraceFormatException(
          typeAt,
          "unsupported Trace object version "
              + version
              + (isNetTrace
                  ? " in a nettrace stream (expected 4 or 5)"
                  : " in a netperf stream (expected 3)"));
    }
    long dataAt = src.position();
    byte[] data = new byte[TRACE_OBJECT_SIZE];
    src.readFully(data, 0, data.length, "Trace object data");
    expectTag(FastSerializationTag.END_OBJECT, "after Trace object data");
    PayloadCursor c = new PayloadCursor(data, 0, data.length, dataAt);
    return traceFields(c, version == 3 ? 3 : 4, true);
  }

  private TraceHeader readV6TraceBlock() {
    long at = src.position();
    int h = src.readI32("V6 block header");
    int size = h & 0xFFFFFF;
    if (BlockKind.fromV6Code(h >>> 24) != BlockKind.TRACE) {
      throw new NetTraceFormatException(
          at, "expected Trace block (kind 1) first, found kind " + (h >>> 24));
    }
    long dataAt = src.position();
    byte[] data = src.readBlock(null, size, "Trace block");
    PayloadCursor c = new PayloadCursor(data, 0, size, dataAt);
    return traceFields(c, 6, false);
  }

  private static TraceHeader traceFields(PayloadCursor c, int version, boolean v4Layout) {
    long timeAt = c.streamOffset();
    short[] st = new short[8];
    for (int i = 0; i < 8; i++) {
      st[i] = (short) c.readU16("SYSTEMTIME field");
    }
    java.time.Instant sync;
    try {
      sync =
          LocalDateTime.of(st[0], st[1], st[3], st[4], st[5], st[6], st[7] * 1_000_000)
              .toInstant(ZoneOffset.UTC);
    } catch (DateTimeException e) {
      throw new NetTraceFormatException(timeAt, "invalid SYSTEMTIME sync time: " + e.getMessage());
    }
    long syncQpc = c.readI64("sync QPC");
    long freqAt = c.streamOffset();
    long freq = c.readI64("QPC frequency");
    if (freq <= 0) {
      throw new NetTraceFormatException(freqAt, "QPC frequency must be positive, found " + freq);
    }
    long ptrAt = c.streamOffset();
    int pointerSize = c.readI32("pointer size");
    if (pointerSize != 4 && pointerSize != 8) {
      throw new NetTraceFormatException(ptrAt, "pointer size must be 4 or 8, found " + pointerSize);
    }
    if (v4Layout) {
      int pid = c.readI32("process id");
      int cpus = c.readI32("processor count");
      int rate = c.readI32("expected CPU sampling rate");
      return new TraceHeader(version, sync, syncQpc, freq, pointerSize, pid, cpus, rate, Map.of());
    }
    long pairsAt = c.streamOffset();
    int pairs = c.readI32("header key/value count");
    // Each pair takes at least two bytes (two empty strings), which bounds the loop.
    if (pairs < 0 || (long) pairs * 2 > c.remaining()) {
      throw new NetTraceFormatException(
          pairsAt, "key/value count " + pairs + " does not fit in " + c.remaining() + " bytes");
    }
    Map<String, String> kv = new LinkedHashMap<>();
    for (int i = 0; i < pairs; i++) {
      kv.put(c.readVarUtf8("header key"), c.readVarUtf8("header value"));
    }
    return new TraceHeader(
        6,
        sync,
        syncQpc,
        freq,
        pointerSize,
        intValue(kv, "ProcessId"),
        intValue(kv, "HardwareThreadCount"),
        intValue(kv, "ExpectedCPUSamplingRate"),
        kv);
  }

  private static int intValue(Map<String, String> kv, String key) {
    try {
      return Integer.parseInt(kv.getOrDefault(key, "0").trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * Reads the next block. Returns null at the end of the stream. {@code freshBuffer} asks for a
   * newly allocated array (event blocks, whose bytes stay referenced by their events); otherwise a
   * scratch buffer may be reused.
   */
  RawBlock next(boolean freshBufferForEvents) {
    return next(freshBufferForEvents, null);
  }

  /**
   * Reads the next block, an event block into {@code eventBuffer} (when it is large enough; a new
   * array otherwise): the caller owns it until the block's events are done with. Null at the end.
   */
  RawBlock next(byte[] eventBuffer) {
    return next(true, eventBuffer);
  }

  private RawBlock next(boolean fresh, byte[] eventBuffer) {
    if (ended) {
      return null;
    }
    return formatVersion == 6
        ? nextV6(fresh, eventBuffer)
        : nextFastSerialization(fresh, eventBuffer);
  }

  private RawBlock nextFastSerialization(boolean fresh, byte[] eventBuffer) {
    long at = src.position();
    int tag = src.readU8("next object tag or NullReference end marker");
    if (tag == FastSerializationTag.NULL_REFERENCE.code) {
      ended = true;
      return null;
    }
    if (!FastSerializationTag.isBegin(tag)) {
      throw new NetTraceFormatException(
          at, "expected BeginObject tag (4 or 5) or NullReference (1), found " + tag);
    }
    Object[] type = readTypeObject();
    String name = (String) type[0];
    BlockKind kind = BlockKind.fromObjectName(name);
    if (kind == BlockKind.TRACE) {
      throw new NetTraceFormatException(at, "second Trace object");
    }
    long sizeAt = src.position();
    int size = src.readI32(name + " size");
    if (size < 0 || size > MAX_BLOCK_SIZE) {
      throw new NetTraceFormatException(
          sizeAt, name + " size " + size + " outside 0.." + MAX_BLOCK_SIZE);
    }
    int pad = (int) (-src.position() & 3);
    src.skip(pad, "block alignment padding");
    long dataAt = src.position();
    RawBlock block;
    if (kind == BlockKind.UNKNOWN) {
      log.debug(
          "skipping an object of unknown type '{}' (version {}, {} bytes) at offset {}",
          name,
          type[1],
          size,
          dataAt);
      src.skip(size, "unknown object " + name);
      block = new RawBlock(kind, name, (Integer) type[1], new byte[0], 0, dataAt);
    } else {
      byte[] data = read(kind, fresh, eventBuffer, size, name);
      if (!(fresh && kind == BlockKind.EVENT)) {
        scratch = data;
      }
      block = new RawBlock(kind, name, (Integer) type[1], data, size, dataAt);
    }
    expectTag(FastSerializationTag.END_OBJECT, "after " + name);
    return block;
  }

  /** A block's bytes: an event block's into {@code eventBuffer} or a new array, if asked. */
  private byte[] read(BlockKind kind, boolean fresh, byte[] eventBuffer, int size, String what) {
    return fresh && kind == BlockKind.EVENT
        ? src.readBlockInto(eventBuffer, size, what)
        : src.readBlock(scratch, size, what);
  }

  private RawBlock nextV6(boolean fresh, byte[] eventBuffer) {
    long at = src.position();
    int h = src.readI32("V6 block header");
    int size = h & 0xFFFFFF;
    BlockKind kind = BlockKind.fromV6Code(h >>> 24);
    if (kind == BlockKind.END_OF_STREAM) {
      ended = true;
      return null;
    }
    if (kind == BlockKind.TRACE) {
      throw new NetTraceFormatException(at, "second Trace block");
    }
    long dataAt = src.position();
    if (kind == BlockKind.UNKNOWN) {
      log.debug(
          "skipping a block of unknown kind {} ({} bytes) at offset {}", h >>> 24, size, dataAt);
      src.skip(size, "unknown block kind " + (h >>> 24));
      return new RawBlock(kind, "kind " + (h >>> 24), 0, new byte[0], 0, dataAt);
    }
    byte[] data = read(kind, fresh, eventBuffer, size, kind + " block");
    if (!(fresh && kind == BlockKind.EVENT)) {
      scratch = data;
    }
    return new RawBlock(kind, kind.name(), 0, data, size, dataAt);
  }
}
