package dev.clrscope.nettrace.events;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Every event of the runtime's native providers (runtime, rundown, private, stress) as the
 * runtime's manifest ({@code src/coreclr/vm/ClrEtwAll.man} in dotnet/runtime) declares it: its name
 * as TraceEvent prints it, its symbol and its payload layout per version. The native events'
 * EventPipe metadata carries no field descriptions, so this table is the only way to name and
 * decode them.
 *
 * <p>The table lives in {@code *.events} resources beside this class, one per provider, derived
 * from the manifest once. Their form:
 *
 * <pre>
 * provider NAME GUID
 * template TID
 *   FIELD TYPE                 u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 bool ptr str astr guid bin
 *   FIELD TYPE[COUNT]          COUNT: an earlier field's name, or a number
 *   FIELD TYPE(LENGTH)         a fixed length (bytes for bin, characters for strings)
 *   FIELD {[COUNT]             a struct array; members indented two more, closed by "}"
 * event ID VERSION NAME TID|- SYMBOL
 * </pre>
 */
public final class RuntimeManifest {
  /** The table's resources, one per provider. */
  private static final String[] RESOURCES = {
    "runtime.events", "rundown.events", "private.events", "stress.events"
  };

  /**
   * The value maps (enumerations and flags) of the fields, and which template fields use them:
   *
   * <pre>
   * provider NAME
   * valuemap|bitmap MAP
   *   VALUE NAME                 decimal value, the name TraceEvent prints
   * use TEMPLATE FIELD MAP
   * </pre>
   */
  private static final String MAPS = "maps.events";

  /** Field types of the table; {@link #STRUCT} holds members. */
  public enum FieldType {
    U8,
    U16,
    U32,
    U64,
    I8,
    I16,
    I32,
    I64,
    F32,
    F64,
    /** win:Boolean: 4 bytes. */
    BOOL,
    /** The trace's pointer size. */
    PTR,
    /** NUL-terminated UTF-16, or a fixed number of UTF-16 units. */
    STR,
    /** NUL-terminated 8-bit, or a fixed number of bytes. */
    ASTR,
    GUID,
    /** Bytes of a fixed or counted length. */
    BIN,
    STRUCT;

    /** The smallest number of bytes a value takes (0 when only a length says). */
    int minSize(int pointerSize) {
      return switch (this) {
        case U8, I8, ASTR -> 1;
        case U16, I16, STR -> 2;
        case U32, I32, F32, BOOL -> 4;
        case U64, I64, F64 -> 8;
        case PTR -> pointerSize;
        case GUID -> 16;
        case BIN, STRUCT -> 0;
      };
    }
  }

  /**
   * One field of a layout.
   *
   * @param name the manifest's field name
   * @param type its type
   * @param count null for one value; else an earlier field's name or a decimal number
   * @param length null, or the fixed length of a string or binary value (a field name or number)
   * @param members the members of a {@link FieldType#STRUCT}, else empty
   */
  public record Field(
      String name, FieldType type, String count, String length, List<Field> members, ValueMap map) {

    /** The field's value map, if it has one. */
    public Optional<ValueMap> valueMap() {
      return Optional.ofNullable(map);
    }
  }

  /**
   * Names of a field's values: an enumeration ({@code bits} false: one name per value) or flags
   * ({@code bits} true: a name per bit, joined with {@code |}).
   *
   * @param name the map's name in the manifest
   * @param bits whether values are flags
   * @param names value to name
   */
  public record ValueMap(String name, boolean bits, NavigableMap<Long, String> names) {

    /** The value for a name ({@code AllocSmall}, {@code Flag1|Flag2}), ignoring case. */
    public Optional<Long> valueOf(String text) {
      long total = 0;
      for (String part : bits ? text.split("\\|") : new String[] {text}) {
        Long found = null;
        for (Map.Entry<Long, String> e : names.entrySet()) {
          if (e.getValue().equalsIgnoreCase(part.strip())) {
            found = e.getKey();
            break;
          }
        }
        if (found == null) {
          return Optional.empty();
        }
        total |= found;
      }
      return Optional.of(total);
    }
  }

  /**
   * One version of one event.
   *
   * @param provider provider name
   * @param id event id
   * @param version event version
   * @param name TraceEvent's "Task/Opcode" name (just "Task" for an Info opcode)
   * @param symbol the manifest's symbol, e.g. {@code GCStart_V2}
   * @param fields the payload layout; empty for an event without a payload
   */
  public record Event(
      String provider, int id, int version, String name, String symbol, List<Field> fields) {

    /** The symbol without its version suffix: {@code GCStart_V2} is {@code GCStart}. */
    public String baseSymbol() {
      return symbol.replaceFirst("_V\\d+$", "");
    }
  }

  private static final class Table {
    /** Provider, then event id, then version. */
    static final Map<String, Map<Integer, NavigableMap<Integer, Event>>> EVENTS = load();
  }

  private RuntimeManifest() {}

  /**
   * The declaration of event {@code id} of {@code provider} at {@code version}; a version the table
   * does not have takes the nearest lower one (versions only append fields), or the lowest.
   */
  public static Optional<Event> lookup(String provider, int id, int version) {
    Map<Integer, NavigableMap<Integer, Event>> byId = Table.EVENTS.get(provider);
    if (byId == null) {
      return Optional.empty();
    }
    NavigableMap<Integer, Event> versions = byId.get(id);
    if (versions == null) {
      return Optional.empty();
    }
    Map.Entry<Integer, Event> e = versions.floorEntry(version);
    return Optional.of(e != null ? e.getValue() : versions.firstEntry().getValue());
  }

  /** The table's spelling of {@code provider}, matched ignoring case, if the table has it. */
  public static Optional<String> providerNamed(String provider) {
    return Table.EVENTS.keySet().stream().filter(p -> p.equalsIgnoreCase(provider)).findFirst();
  }

  /** Every event of {@code provider}, every version, in id then version order. */
  public static List<Event> events(String provider) {
    List<Event> out = new ArrayList<>();
    Map<Integer, NavigableMap<Integer, Event>> byId = Table.EVENTS.getOrDefault(provider, Map.of());
    new TreeMap<>(byId).values().forEach(v -> out.addAll(v.values()));
    return out;
  }

  private static BufferedReader open(String resource) {
    InputStream in = RuntimeManifest.class.getResourceAsStream(resource);
    if (in == null) {
      throw new IllegalStateException("event table " + resource + " is missing from the jar");
    }
    return new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
  }

  private static Map<String, Map<Integer, NavigableMap<Integer, Event>>> load() {
    Map<String, Map<Integer, NavigableMap<Integer, Event>>> all = new HashMap<>();
    Map<String, ValueMap> uses;
    try (BufferedReader in = open(MAPS)) {
      uses = parseMaps(MAPS, in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read event table " + MAPS, e);
    }
    for (String resource : RESOURCES) {
      try (BufferedReader in = open(resource)) {
        parse(resource, in, uses)
            .forEach(
                e ->
                    all.computeIfAbsent(e.provider(), p -> new HashMap<>())
                        .computeIfAbsent(e.id(), i -> new TreeMap<>())
                        .put(e.version(), e));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read event table " + resource, e);
      }
    }
    return all;
  }

  /** Parses one table; a line it does not understand is a bug in the table, named by line. */
  static List<Event> parse(String source, BufferedReader in) throws IOException {
    return parse(source, in, Map.of());
  }

  /**
   * Parses one table, giving each field the map {@code uses} names for it ({@code
   * provider/template/field} to map).
   */
  static List<Event> parse(String source, BufferedReader in, Map<String, ValueMap> uses)
      throws IOException {
    String template = null;
    String provider = null;
    Map<String, List<Field>> templates = new HashMap<>();
    List<Event> events = new ArrayList<>();
    // Open field lists: the template's at the bottom, then one per open struct.
    Deque<List<Field>> open = new ArrayDeque<>();
    Deque<String[]> openStructs = new ArrayDeque<>();
    String line;
    int number = 0;
    while ((line = in.readLine()) != null) {
      number++;
      String where = source + ":" + number;
      String t = line.strip();
      if (t.isEmpty() || t.startsWith("#")) {
        continue;
      }
      String[] w = t.split("\\s+");
      if (t.equals("}")) {
        if (openStructs.isEmpty()) {
          throw new IllegalStateException(where + ": '}' closes nothing");
        }
        List<Field> members = open.pop();
        String[] s = openStructs.pop();
        open.peek().add(new Field(s[0], FieldType.STRUCT, s[1], null, List.copyOf(members), null));
        continue;
      }
      switch (w[0]) {
        case "provider" -> {
          provider = w[1];
          open.clear();
        }
        case "template" -> {
          if (!openStructs.isEmpty()) {
            throw new IllegalStateException(where + ": struct left open");
          }
          List<Field> fields = new ArrayList<>();
          template = w[1];
          templates.put(w[1], fields);
          open.clear();
          open.push(fields);
        }
        case "event" -> {
          if (provider == null || w.length != 6) {
            throw new IllegalStateException(where + ": event line without a provider or malformed");
          }
          List<Field> fields = w[4].equals("-") ? List.of() : templates.get(w[4]);
          if (fields == null) {
            throw new IllegalStateException(where + ": unknown template " + w[4]);
          }
          events.add(
              new Event(
                  provider,
                  Integer.parseInt(w[1]),
                  Integer.parseInt(w[2]),
                  w[3],
                  w[5],
                  List.copyOf(fields)));
          open.clear();
        }
        default -> {
          if (open.isEmpty() || w.length != 2) {
            throw new IllegalStateException(where + ": field outside a template: " + t);
          }
          if (w[1].startsWith("{")) {
            String count = w[1].length() > 1 ? bracketed(w[1].substring(1), '[', ']', where) : "1";
            openStructs.push(new String[] {w[0], count});
            open.push(new ArrayList<>());
          } else {
            Field f = field(w[0], w[1], where);
            ValueMap map = uses.get(provider + "/" + template + "/" + w[0]);
            open.peek()
                .add(
                    map == null
                        ? f
                        : new Field(f.name(), f.type(), f.count(), f.length(), f.members(), map));
          }
        }
      }
    }
    return events;
  }

  /** The maps table: {@code provider/template/field} to the map that field uses. */
  static Map<String, ValueMap> parseMaps(String source, BufferedReader in) throws IOException {
    Map<String, ValueMap> maps = new HashMap<>();
    Map<String, ValueMap> uses = new HashMap<>();
    String provider = null;
    NavigableMap<Long, String> current = null;
    String line;
    int number = 0;
    while ((line = in.readLine()) != null) {
      number++;
      String t = line.strip();
      if (t.isEmpty() || t.startsWith("#")) {
        continue;
      }
      String[] w = t.split("\\s+");
      String where = source + ":" + number;
      switch (w[0]) {
        case "provider" -> provider = w[1];
        case "valuemap", "bitmap" -> {
          current = new TreeMap<>();
          maps.put(provider + "/" + w[1], new ValueMap(w[1], w[0].equals("bitmap"), current));
        }
        case "use" -> {
          ValueMap map = maps.get(provider + "/" + w[3]);
          if (map == null) {
            throw new IllegalStateException(where + ": unknown map " + w[3]);
          }
          uses.put(provider + "/" + w[1] + "/" + w[2], map);
          current = null;
        }
        default -> {
          if (current == null || w.length != 2) {
            throw new IllegalStateException(where + ": value outside a map: " + t);
          }
          current.put(Long.parseLong(w[0]), w[1]);
        }
      }
    }
    return uses;
  }

  private static Field field(String name, String spec, String where) {
    int cut = spec.length();
    for (int i = 0; i < spec.length(); i++) {
      if (spec.charAt(i) == '(' || spec.charAt(i) == '[') {
        cut = i;
        break;
      }
    }
    FieldType type;
    try {
      type = FieldType.valueOf(spec.substring(0, cut).toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(where + ": unknown type " + spec, e);
    }
    String rest = spec.substring(cut);
    String length = null;
    if (rest.startsWith("(")) {
      int close = rest.indexOf(')');
      length = bracketed(rest.substring(0, close + 1), '(', ')', where);
      rest = rest.substring(close + 1);
    }
    String count = rest.isEmpty() ? null : bracketed(rest, '[', ']', where);
    if (type == FieldType.STRUCT) {
      throw new IllegalStateException(where + ": a struct is written NAME {[COUNT]");
    }
    return new Field(name, type, count, length, List.of(), null);
  }

  private static String bracketed(String s, char open, char close, String where) {
    if (s.length() < 3 || s.charAt(0) != open || s.charAt(s.length() - 1) != close) {
      throw new IllegalStateException(where + ": expected " + open + "X" + close + ", got " + s);
    }
    return s.substring(1, s.length() - 1);
  }
}
