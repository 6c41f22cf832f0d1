package dev.clrscope.serve;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.clrscope.ipc.client.DumpType;
import dev.clrscope.nettrace.InputFile;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a rules file ({@code serve --rules FILE}), JSON:
 *
 * <pre>
 * {"rules": [
 *   {"name": "queue-backlog", "process": "CountersApp",
 *    "provider": "Clrscope.Demo", "counter": "clrscope.demo.queue.length",
 *    "above": 40, "for": "5s",
 *    "collect": "gcdump", "coolDown": "10m", "into": "/var/tmp/artifacts"}]}
 * </pre>
 *
 * <p>{@code provider} defaults to System.Runtime, {@code for} to 0 (the first value beyond the
 * threshold), {@code coolDown} to 10 minutes; exactly one of {@code above} and {@code below}; a
 * trace takes {@code duration} (default 30 s) and {@code profile}, a dump {@code type} (default
 * heap). Every mistake is a {@link Invalid} naming the file, the field ({@code rules[0].above}) and
 * what it takes. (JSON because no YAML parser is available offline to the build.)
 */
public final class RulesFile {
  /** A rules file is an object holding a list of flat objects: three levels. */
  private static final int MAX_DEPTH = 16;

  /** The most a rules file may hold: rules are a few hundred bytes each. */
  private static final long MAX_BYTES = 1 << 20;

  private static final JsonFactory JSON =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(MAX_DEPTH)
                  .maxStringLength(64 << 10)
                  .maxNumberLength(64)
                  .build())
          .build();

  private static final Set<String> FIELDS =
      Set.of(
          "name",
          "process",
          "provider",
          "counter",
          "above",
          "below",
          "for",
          "collect",
          "duration",
          "profile",
          "type",
          "into",
          "coolDown");

  /** A rules file that cannot be used: the message names the file, the field and what it takes. */
  public static final class Invalid extends Exception {
    private static final long serialVersionUID = 1L;

    Invalid(String message) {
      super(message);
    }
  }

  private RulesFile() {}

  /** Reads and checks {@code file}. */
  public static List<CollectionRule> read(Path file) throws Invalid {
    Object root;
    byte[] bytes;
    try {
      bytes = InputFile.readAllBytes(file, MAX_BYTES);
    } catch (FileSystemException e) {
      throw new Invalid(
          "cannot read the rules file "
              + file
              + ": "
              + (e instanceof NoSuchFileException ? "no such file" : e.getReason()));
    } catch (IOException e) {
      throw new Invalid("cannot read the rules file " + file + ": " + e.getMessage());
    }
    try (JsonParser p = JSON.createParser(bytes)) {
      try {
        p.nextToken();
        root = value(p);
      } catch (StreamConstraintsException e) {
        throw new Invalid(
            file
                + ": nested deeper than "
                + MAX_DEPTH
                + " levels or a value too long, at line "
                + line(p)
                + " (a rules file is {\"rules\": [ {...}, ... ]})");
      }
      if (p.nextToken() != null) {
        throw new Invalid(file + ": more after the JSON object, at line " + line(p));
      }
    } catch (JsonProcessingException e) {
      throw new Invalid(
          file
              + ": not JSON at line "
              + line(e)
              + ", column "
              + (e.getLocation() == null ? "?" : e.getLocation().getColumnNr())
              + " ("
              + e.getOriginalMessage()
              + ")");
    } catch (IOException e) {
      throw new Invalid("cannot read the rules file " + file + ": " + e.getMessage());
    }
    if (!(root instanceof Map<?, ?> top) || !(top.get("rules") instanceof List<?> list)) {
      throw new Invalid(
          file + ": the file must be one object {\"rules\": [ ... ]}, a list of rule objects");
    }
    for (Object key : top.keySet()) {
      if (!key.equals("rules")) {
        throw new Invalid(file + ": unknown field '" + key + "' (the file holds \"rules\" only)");
      }
    }
    if (list.isEmpty()) {
      throw new Invalid(file + ": \"rules\" is empty; give at least one rule");
    }
    List<CollectionRule> rules = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      String at = file + ": rules[" + i + "]";
      if (!(list.get(i) instanceof Map<?, ?> m)) {
        throw new Invalid(at + " must be an object");
      }
      CollectionRule r = rule(at, m, i);
      if (!names.add(r.name())) {
        throw new Invalid(
            at + ".name: '" + r.name() + "' names another rule too; names are unique");
      }
      rules.add(r);
    }
    return rules;
  }

  private static CollectionRule rule(String at, Map<?, ?> m, int index) throws Invalid {
    for (Object key : m.keySet()) {
      if (!FIELDS.contains(key)) {
        throw new Invalid(
            at
                + ": unknown field '"
                + key
                + "' (a rule takes "
                + String.join(", ", sorted())
                + ")");
      }
    }
    String name = text(at, m, "name", false);
    if (name == null) {
      name = "rule" + (index + 1);
    }
    String counter = text(at, m, "counter", true);
    String provider = text(at, m, "provider", false);
    if (m.containsKey("above") == m.containsKey("below")) {
      throw new Invalid(
          at + ": give exactly one of \"above\" and \"below\" (a number: the threshold)");
    }
    boolean above = m.containsKey("above");
    Object t = m.get(above ? "above" : "below");
    if (!(t instanceof Number n) || !Double.isFinite(n.doubleValue())) {
      throw new Invalid(
          at + "." + (above ? "above" : "below") + " must be a number, got " + show(t));
    }
    String kindText = text(at, m, "collect", true);
    CollectionRule.Kind kind;
    try {
      kind = CollectionRule.Kind.valueOf(kindText.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new Invalid(at + ".collect takes trace, gcdump or dump; got '" + kindText + "'");
    }
    if (kind != CollectionRule.Kind.TRACE
        && (m.containsKey("duration") || m.containsKey("profile"))) {
      throw new Invalid(at + ": \"duration\" and \"profile\" are for \"collect\": \"trace\"");
    }
    if (kind != CollectionRule.Kind.DUMP && m.containsKey("type")) {
      throw new Invalid(at + ": \"type\" is for \"collect\": \"dump\"");
    }
    DumpType type = DumpType.HEAP;
    String typeText = text(at, m, "type", false);
    if (typeText != null) {
      try {
        type = ArtifactQuery.dumpType(typeText);
      } catch (ArtifactProblem e) {
        throw new Invalid(
            at + ".type takes mini, heap (WithHeap), triage or full; got '" + typeText + "'");
      }
    }
    String into = text(at, m, "into", false);
    return new CollectionRule(
        name,
        text(at, m, "process", false),
        provider == null ? "System.Runtime" : provider,
        counter,
        above,
        n.doubleValue(),
        duration(at, m, "for", Duration.ZERO, Duration.ofDays(1)),
        kind,
        duration(at, m, "duration", ArtifactQuery.DEFAULT_TRACE, ArtifactCollector.MAX_TRACE),
        text(at, m, "profile", false),
        type,
        into == null ? null : Path.of(into),
        duration(at, m, "coolDown", Duration.ofMinutes(10), Duration.ofDays(7)));
  }

  private static List<String> sorted() {
    List<String> s = new ArrayList<>(FIELDS);
    s.sort(null);
    return s;
  }

  private static String text(String at, Map<?, ?> m, String field, boolean required)
      throws Invalid {
    Object v = m.get(field);
    if (v == null) {
      if (required) {
        throw new Invalid(at + ": \"" + field + "\" is required" + what(field));
      }
      return null;
    }
    if (!(v instanceof String s) || s.isBlank()) {
      throw new Invalid(
          at + "." + field + " must be a non-empty string" + what(field) + ", got " + show(v));
    }
    return s.strip();
  }

  private static String what(String field) {
    return switch (field) {
      case "counter" -> " (the instrument's name, as counters list shows it)";
      case "collect" -> " (trace, gcdump or dump)";
      default -> "";
    };
  }

  private static Duration duration(
      String at, Map<?, ?> m, String field, Duration otherwise, Duration max) throws Invalid {
    Object v = m.get(field);
    if (v == null) {
      return otherwise;
    }
    Duration d =
        DurationText.parse(v instanceof Number n ? n.toString() : v instanceof String s ? s : null);
    if (d == null || d.compareTo(max) > 0 || (field.equals("duration") && d.isZero())) {
      throw new Invalid(
          at
              + "."
              + field
              + " takes "
              + DurationText.FORMS
              + ", up to "
              + DurationText.show(max)
              + "; got "
              + show(v));
    }
    return d;
  }

  private static String show(Object v) {
    return v instanceof String s ? "'" + s + "'" : String.valueOf(v);
  }

  private static String line(JsonProcessingException e) {
    return e.getLocation() == null ? "?" : Integer.toString(e.getLocation().getLineNr());
  }

  private static int line(JsonParser p) {
    return p.getCurrentLocation().getLineNr();
  }

  /** The value at the current token: a map, list, string, number, boolean or null. */
  private static Object value(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t == null) {
      return null;
    }
    switch (t) {
      case START_OBJECT -> {
        Map<String, Object> m = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String key = p.currentName();
          p.nextToken();
          m.put(key, value(p));
        }
        return m;
      }
      case START_ARRAY -> {
        List<Object> l = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          l.add(value(p));
        }
        return l;
      }
      case VALUE_STRING -> {
        return p.getText();
      }
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
        return p.getDoubleValue();
      }
      case VALUE_TRUE, VALUE_FALSE -> {
        return p.getBooleanValue();
      }
      default -> {
        return null;
      }
    }
  }
}
