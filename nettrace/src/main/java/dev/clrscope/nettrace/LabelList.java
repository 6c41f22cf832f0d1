package dev.clrscope.nettrace;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The labels a V6 event refers to through its label list id: correlation ids, free key/values and
 * overrides of its metadata. Events of older versions carry their activity ids in the header and
 * have {@link #EMPTY} labels. When a list repeats a kind or a key, the last one wins.
 *
 * <pre>
 *  LabelList block: u32 firstIndex (&gt;= 1) | u32 count | count lists
 *  list: label+, the last one with bit 0x80 set in its kind
 *  label: u8 kind (LabelKind) | value
 * </pre>
 *
 * @param activityId activity id, {@link Guid#EMPTY} if none
 * @param relatedActivityId related activity id, {@link Guid#EMPTY} if none
 * @param traceId W3C trace id as 32 lowercase hex digits in byte order, empty if none
 * @param spanId W3C span id; 0 if none (an all-zero span id is invalid in W3C trace context)
 * @param stringValues string key/values, in file order
 * @param integerValues integer key/values, in file order
 * @param opcode opcode overriding the metadata's, or null
 * @param keywords keywords overriding the metadata's, or null
 * @param level level overriding the metadata's, or null
 * @param version version overriding the metadata's, or null
 */
public record LabelList(
    Guid activityId,
    Guid relatedActivityId,
    String traceId,
    long spanId,
    Map<String, String> stringValues,
    Map<String, Long> integerValues,
    Integer opcode,
    Long keywords,
    Integer level,
    Integer version) {

  /** No labels (label list id 0). */
  public static final LabelList EMPTY =
      new LabelList(Guid.EMPTY, Guid.EMPTY, "", 0, Map.of(), Map.of(), null, null, null, null);

  public LabelList {
    stringValues = Collections.unmodifiableMap(new LinkedHashMap<>(stringValues));
    integerValues = Collections.unmodifiableMap(new LinkedHashMap<>(integerValues));
  }

  /** Labels holding only activity ids (what a V4/V5 event header carries). */
  public static LabelList ofActivities(Guid activityId, Guid relatedActivityId) {
    return EMPTY.withActivities(activityId, relatedActivityId);
  }

  /** A copy with these activity ids. */
  public LabelList withActivities(Guid activity, Guid related) {
    return new LabelList(
        activity,
        related,
        traceId,
        spanId,
        stringValues,
        integerValues,
        opcode,
        keywords,
        level,
        version);
  }

  /** True if no label is set. */
  public boolean isEmpty() {
    return equals(EMPTY);
  }

  /** True if the list overrides any of the metadata's opcode, keywords, level or version. */
  public boolean overridesMetadata() {
    return opcode != null || keywords != null || level != null || version != null;
  }

  /** {@code m} with this list's overrides applied. */
  EventMetadata applyTo(EventMetadata m) {
    if (!overridesMetadata()) {
      return m;
    }
    return new EventMetadata(
        m.metadataId(),
        m.providerName(),
        m.eventId(),
        m.eventName(),
        keywords != null ? keywords : m.keywords(),
        version != null ? version : m.version(),
        level != null ? level : m.level(),
        opcode != null ? opcode : m.opcode(),
        m.fields(),
        m.annotations());
  }
}
