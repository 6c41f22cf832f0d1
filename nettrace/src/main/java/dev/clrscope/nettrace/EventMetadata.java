package dev.clrscope.nettrace;

import java.util.List;
import java.util.Objects;

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
 * @param annotations V6 descriptive items (message template, description, key/values, provider
 *     GUID); {@link MetadataAnnotations#EMPTY} before V6
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
    List<FieldDescriptor> fields,
    MetadataAnnotations annotations) {

  public EventMetadata {
    fields = List.copyOf(fields);
    Objects.requireNonNull(annotations, "annotations");
  }

  /** Metadata without V6 annotations, as V3-V5 records are. */
  public EventMetadata(
      int metadataId,
      String providerName,
      int eventId,
      String eventName,
      long keywords,
      int version,
      int level,
      int opcode,
      List<FieldDescriptor> fields) {
    this(
        metadataId,
        providerName,
        eventId,
        eventName,
        keywords,
        version,
        level,
        opcode,
        fields,
        MetadataAnnotations.EMPTY);
  }

  /** A copy with another metadata id, for writers that renumber. */
  public EventMetadata withMetadataId(int id) {
    return new EventMetadata(
        id,
        providerName,
        eventId,
        eventName,
        keywords,
        version,
        level,
        opcode,
        fields,
        annotations);
  }
}
