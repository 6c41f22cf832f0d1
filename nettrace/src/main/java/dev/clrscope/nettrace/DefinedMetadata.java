package dev.clrscope.nettrace;

import java.util.HashMap;
import java.util.Map;

/**
 * The metadata records a writer has written, by id. Events name their metadata by id alone, so two
 * different records under one id would have a reader decode some events with the wrong one: that is
 * an error.
 */
final class DefinedMetadata {
  private final Map<Integer, EventMetadata> byId = new HashMap<>();

  /**
   * Whether {@code m} is written already; a different record under its id is not allowed.
   *
   * @throws IllegalArgumentException if a different record was written under its id
   */
  boolean isDefined(EventMetadata m) {
    EventMetadata known = byId.get(m.metadataId());
    if (known != null && !known.equals(m)) {
      throw new IllegalArgumentException(
          "metadata id " + m.metadataId() + " already defined differently");
    }
    return known != null;
  }

  void add(EventMetadata m) {
    byId.put(m.metadataId(), m);
  }

  /** Forgets every record, after the reader was told to (V6 sequence point). */
  void clear() {
    byId.clear();
  }
}
