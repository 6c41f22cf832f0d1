package dev.clrscope.nettrace;

import java.util.List;

/**
 * What a metadata record says about one event type. Native runtime events carry an empty name and
 * no fields; their payloads are decoded from known layouts (see {@code
 * dev.clrscope.nettrace.runtime.RuntimeEvents}).
 *
 * @param metadataId id that events use to refer to this record
 * @param providerName provider (EventSource) name
 * @param eventId event id within the provider
 * @param eventName event name; empty for native runtime events
 * @param keywords keyword bits
 * @param version event version
 * @param level verbosity level (1 critical .. 5 verbose)
 * @param opcode opcode from the V5 tag or V6 item; 0 when absent
 * @param fields payload fields, in order; empty when the payload is not self-describing
 */
public record EventMetadata(
    int metadataId,
    String providerName,
    int eventId,
    String eventName,
    long keywords,
    int version,
    int level,
    int opcode,
    List<FieldDescriptor> fields) {

  public EventMetadata {
    fields = List.copyOf(fields);
  }

  /** A copy with another metadata id, for writers that renumber. */
  public EventMetadata withMetadataId(int id) {
    return new EventMetadata(
        id, providerName, eventId, eventName, keywords, version, level, opcode, fields);
  }
}
