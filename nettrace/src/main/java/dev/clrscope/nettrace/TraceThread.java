package dev.clrscope.nettrace;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A row of the V6 thread table: what a thread index stands for. Every item of a thread row is
 * optional, so absent ids are -1 and an absent name is empty.
 *
 * <pre>
 *  Thread block row: u16 rowSize | varuint64 index | item*
 *  item: u8 kind (ThreadItemKind) | value
 * </pre>
 *
 * @param index the index events and sequence points use to refer to this thread
 * @param processId OS process id, or -1 if the row does not say
 * @param threadId OS thread id, or -1 if the row does not say
 * @param name thread name, empty if the row does not say
 * @param keyValues other descriptive items, in file order
 */
public record TraceThread(
    long index, long processId, long threadId, String name, Map<String, String> keyValues) {

  public TraceThread {
    keyValues = Collections.unmodifiableMap(new LinkedHashMap<>(keyValues));
  }
}
