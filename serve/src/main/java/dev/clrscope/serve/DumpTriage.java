package dev.clrscope.serve;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Says what is wrong with a core dump a collection rule wrote: triage's JSON report of it. The
 * command line gives serve one that runs {@code clrscope triage CORE --format json} in a process of
 * its own (the DAC that reads a core is native code serve does not load); serve keeps the report
 * beside the dump and serves its findings with the firing.
 */
@FunctionalInterface
public interface DumpTriage {
  /**
   * Triage's report of a core.
   *
   * @return {@code clrscope triage}'s JSON document
   * @throws IOException with why there is none, in one line
   */
  byte[] report(Path core) throws IOException;

  /**
   * A finding as {@code GET /rules} lists it.
   *
   * @param kind {@code deadlock}, {@code leak-suspect}, ...
   * @param severity {@code critical}, {@code error}, {@code warning} or {@code info}
   * @param title its sentence
   */
  record Finding(String kind, String severity, String title) {}

  /** The findings of a report: each one's kind, severity and title, in the report's order. */
  static List<Finding> findings(byte[] report) throws IOException {
    List<Finding> out = new ArrayList<>();
    try (JsonParser p = new JsonFactory().createParser(report)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("triage's report is not a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        if (!name.equals("findings") || value != JsonToken.START_ARRAY) {
          p.skipChildren();
          continue;
        }
        while (p.nextToken() == JsonToken.START_OBJECT) {
          String kind = null;
          String severity = null;
          String title = null;
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
              case "kind" -> kind = p.getValueAsString();
              case "severity" -> severity = p.getValueAsString();
              case "title" -> title = p.getValueAsString();
              default -> p.skipChildren();
            }
          }
          out.add(new Finding(kind, severity, title));
        }
      }
    }
    return out;
  }
}
