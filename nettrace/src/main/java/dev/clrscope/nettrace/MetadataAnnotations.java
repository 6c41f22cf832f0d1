package dev.clrscope.nettrace;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The descriptive optional items of a V6 metadata row; V3-V5 metadata has none of them.
 *
 * @param messageTemplate the event's message template, empty if none
 * @param description a human-readable description, empty if none
 * @param keyValues other key/value items, in file order
 * @param providerGuid the provider's GUID, {@link Guid#EMPTY} if none
 */
public record MetadataAnnotations(
    String messageTemplate, String description, Map<String, String> keyValues, Guid providerGuid) {

  /** No annotations. */
  public static final MetadataAnnotations EMPTY =
      new MetadataAnnotations("", "", Map.of(), Guid.EMPTY);

  public MetadataAnnotations {
    keyValues = Collections.unmodifiableMap(new LinkedHashMap<>(keyValues));
  }

  /** True if no item is set. */
  public boolean isEmpty() {
    return messageTemplate.isEmpty()
        && description.isEmpty()
        && keyValues.isEmpty()
        && providerGuid.isEmpty();
  }
}
