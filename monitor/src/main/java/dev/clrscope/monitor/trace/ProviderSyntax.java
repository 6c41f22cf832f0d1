package dev.clrscope.monitor.trace;

import dev.clrscope.ipc.session.EventLevel;
import dev.clrscope.ipc.session.EventPipeProvider;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * dotnet-trace's provider syntax, {@code Name[:[KeywordsHex][:[Level][:k=v;k="v;v"]]]}, several
 * separated by commas. As dotnet-trace 10 does, an omitted or empty keyword field asks for keywords
 * 0 (a runtime provider then sends only its keyword-less events; an EventSource treats 0 as every
 * keyword) and an omitted or empty level means Informational (4); {@code *} or {@code
 * FFFFFFFFFFFFFFFF} enables every keyword; a level is a number (above 5 is Verbose) or a name.
 * Commas and semicolons inside double quotes belong to an argument value.
 */
public final class ProviderSyntax {
  /** Every keyword bit: what {@code *} means. */
  public static final long ALL_KEYWORDS = -1L;

  /** What an omitted keyword field means, as in dotnet-trace 10. */
  public static final long DEFAULT_KEYWORDS = 0;

  /** Informational: what an omitted level means, as in dotnet-trace 10. */
  public static final int DEFAULT_LEVEL = EventLevel.INFORMATIONAL.value();

  private ProviderSyntax() {}

  /**
   * Parses a comma-separated provider list.
   *
   * @throws IllegalArgumentException with a message naming the faulty part
   */
  public static List<EventPipeProvider> parseList(String text) {
    List<EventPipeProvider> providers = new ArrayList<>();
    for (String one : splitOutsideQuotes(text, ',')) {
      if (!one.isBlank()) {
        providers.add(parse(one.strip()));
      }
    }
    if (providers.isEmpty()) {
      throw new IllegalArgumentException("--providers names no provider: '" + text + "'");
    }
    return providers;
  }

  /** Parses one provider. */
  public static EventPipeProvider parse(String spec) {
    // The arguments may contain ':' (FilterSpecs=App*:Information), so split at most 4 ways.
    List<String> parts = splitOutsideQuotes(spec, ':', 4);
    String name = parts.get(0).strip();
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a provider needs a name: '" + spec + "'");
    }
    long keywords =
        parts.size() > 1 && !parts.get(1).isBlank()
            ? parseKeywords(parts.get(1).strip(), spec)
            : DEFAULT_KEYWORDS;
    int level =
        parts.size() > 2 && !parts.get(2).isBlank()
            ? parseLevel(parts.get(2).strip())
            : DEFAULT_LEVEL;
    Map<String, String> arguments =
        parts.size() > 3 ? parseArguments(parts.get(3), spec) : Map.of();
    return new EventPipeProvider(name, keywords, level, arguments, List.of());
  }

  /** Parses a hexadecimal keyword mask, with or without {@code 0x}; {@code *} means all. */
  static long parseKeywords(String text, String spec) {
    if (text.equals("*")) {
      return ALL_KEYWORDS;
    }
    String hex = text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
    try {
      return Long.parseUnsignedLong(hex, 16);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "keywords must be hexadecimal (such as 0x8000), got '" + text + "' in '" + spec + "'");
    }
  }

  /** Parses a level as {@link EventLevel#parse} does, to its number. */
  public static int parseLevel(String text) {
    return EventLevel.parse(text).value();
  }

  private static Map<String, String> parseArguments(String text, String spec) {
    Map<String, String> args = new LinkedHashMap<>();
    String lastKey = null;
    for (String pair : splitOutsideQuotes(text, ';')) {
      if (pair.isBlank()) {
        continue;
      }
      int eq = pair.indexOf('=');
      if (eq < 0 && lastKey != null) {
        // FilterSpecs=App*:Information;Microsoft*:Warning: a ';' inside a value, unquoted, as
        // dotnet-trace's documentation writes it. The value is re-quoted for the runtime.
        args.put(lastKey, args.get(lastKey) + ";" + pair.strip());
        continue;
      }
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "provider arguments are key=value pairs separated by ';', got '"
                + pair
                + "' in '"
                + spec
                + "'");
      }
      String key = pair.substring(0, eq).strip();
      String value = pair.substring(eq + 1).strip();
      if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
        value = value.substring(1, value.length() - 1);
      }
      args.put(key, value);
      lastKey = key;
    }
    return args;
  }

  private static List<String> splitOutsideQuotes(String text, char separator) {
    return splitOutsideQuotes(text, separator, Integer.MAX_VALUE);
  }

  private static List<String> splitOutsideQuotes(String text, char separator, int limit) {
    List<String> parts = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      }
      if (c == separator && !quoted && parts.size() < limit - 1) {
        parts.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    if (quoted) {
      throw new IllegalArgumentException("unbalanced double quote in '" + text + "'");
    }
    parts.add(current.toString());
    return parts;
  }
}
