package dev.clrscope.nettrace;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The V6 reference tables an event row resolves against: thread rows (until removed or flushed by a
 * sequence point) and label lists (until the next sequence point).
 */
final class V6Tables {
  /** Label list ids count from 1; id 0 is the implicit empty list. */
  private static final int FIRST_LABEL_LIST_ID = 1;

  private final Map<Long, TraceThread> threads = new HashMap<>();
  private final Map<Integer, LabelList> labelLists = new HashMap<>();

  /** The thread row of {@code index}; fails if no thread block defined it. */
  TraceThread thread(long index, long at) {
    TraceThread t = threads.get(index);
    if (t == null) {
      throw new NetTraceFormatException(at, "reference to undefined thread index " + index);
    }
    return t;
  }

  boolean hasThread(long index) {
    return threads.containsKey(index);
  }

  void removeThread(long index) {
    threads.remove(index);
  }

  void clearThreads() {
    threads.clear();
  }

  /** The label list of {@code id} (0 = empty); fails if no label list block defined it. */
  LabelList labels(int id, long at) {
    if (id == 0) {
      return LabelList.EMPTY;
    }
    LabelList l = labelLists.get(id);
    if (l == null) {
      throw new NetTraceFormatException(
          at, "reference to undefined label list id " + (id & 0xFFFFFFFFL));
    }
    return l;
  }

  void clearLabelLists() {
    labelLists.clear();
  }

  /**
   * Thread block.
   *
   * <pre>
   *  row*: u16 rowSize | varuint64 index | ( u8 kind | value )*
   *  kind 1 name: string | 2 OS pid: varuint64 | 3 OS tid: varuint64 | 4 key, value: string string
   * </pre>
   *
   * An unknown kind ends the row: items have no size, and the row's size skips the rest.
   */
  void parseThreadBlock(PayloadCursor c) {
    while (c.remaining() > 0) {
      int size = c.readU16("thread row size");
      PayloadCursor row = c.slice(size, "thread row");
      long index = row.readVarUInt64("thread index");
      long pid = -1;
      long tid = -1;
      String name = "";
      Map<String, String> keyValues = new LinkedHashMap<>();
      while (row.remaining() > 0) {
        ThreadItemKind kind = ThreadItemKind.fromCode(row.readU8("thread item kind"));
        if (kind == null) {
          break;
        }
        switch (kind) {
          case NAME:
            name = row.readVarUtf8("thread name");
            break;
          case OS_PROCESS_ID:
            pid = row.readVarUInt64("OS process id");
            break;
          case OS_THREAD_ID:
            tid = row.readVarUInt64("OS thread id");
            break;
          case KEY_VALUE:
            keyValues.put(row.readVarUtf8("thread key"), row.readVarUtf8("thread value"));
            break;
        }
      }
      threads.put(index, new TraceThread(index, pid, tid, name, keyValues));
    }
  }

  /**
   * Label list block.
   *
   * <pre>
   *  u32 firstIndex (&gt;= 1) | u32 count | count x list
   *  list: ( u8 kind | value )+, the last label with kind bit 0x80 set
   * </pre>
   */
  void parseLabelListBlock(PayloadCursor c) {
    long firstAt = c.streamOffset();
    long first = c.readU32("first label list index");
    long countAt = c.streamOffset();
    long count = c.readU32("label list count");
    if (first < FIRST_LABEL_LIST_ID) {
      throw new NetTraceFormatException(firstAt, "first label list index 0 (must be >= 1)");
    }
    // Every list takes at least 2 bytes (one kind byte and a one-byte value), which bounds it.
    if (count * 2 > c.remaining() || first + count - 1 > 0xFFFF_FFFFL) {
      throw new NetTraceFormatException(
          countAt, "label list count " + count + " does not fit in " + c.remaining() + " bytes");
    }
    for (long i = 0; i < count; i++) {
      labelLists.put((int) (first + i), parseLabelList(c));
    }
  }

  private static LabelList parseLabelList(PayloadCursor c) {
    Guid activity = Guid.EMPTY;
    Guid related = Guid.EMPTY;
    String traceId = "";
    long spanId = 0;
    Map<String, String> strings = new LinkedHashMap<>();
    Map<String, Long> integers = new LinkedHashMap<>();
    Integer opcode = null;
    Long keywords = null;
    Integer level = null;
    Integer version = null;
    boolean last = false;
    while (!last) {
      long at = c.streamOffset();
      int raw = c.readU8("label kind");
      last = (raw & LabelKind.LAST_IN_LIST) != 0;
      LabelKind kind = LabelKind.fromCode(raw & ~LabelKind.LAST_IN_LIST);
      if (kind == null) {
        // Unlike thread items, an unknown label cannot be skipped: the list has no size.
        throw new NetTraceFormatException(at, "unknown label kind " + (raw & 0x7F));
      }
      switch (kind) {
        case ACTIVITY_ID:
          activity = c.readGuid("activity id");
          break;
        case RELATED_ACTIVITY_ID:
          related = c.readGuid("related activity id");
          break;
        case TRACE_ID:
          traceId = hex(c.readBytes(16, "trace id"));
          break;
        case SPAN_ID:
          spanId = c.readI64("span id");
          break;
        case STRING_VALUE:
          strings.put(c.readVarUtf8("label key"), c.readVarUtf8("label value"));
          break;
        case INTEGER_VALUE:
          {
            String key = c.readVarUtf8("label key");
            long z = c.readVarUInt64("label value");
            integers.put(key, (z >>> 1) ^ -(z & 1));
            break;
          }
        case OPCODE:
          opcode = c.readU8("opcode");
          break;
        case KEYWORDS:
          keywords = c.readI64("keywords");
          break;
        case LEVEL:
          level = c.readU8("level");
          break;
        case VERSION:
          version = c.readU8("version");
          break;
      }
    }
    return new LabelList(
        activity, related, traceId, spanId, strings, integers, opcode, keywords, level, version);
  }

  static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder(b.length * 2);
    for (byte x : b) {
      sb.append(Character.forDigit((x >>> 4) & 0xF, 16)).append(Character.forDigit(x & 0xF, 16));
    }
    return sb.toString();
  }
}
