package dev.clrscope.monitor.counters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One provider asked for on the command line, in dotnet-counters' {@code --counters} syntax: {@code
 * Prov} (all its counters), {@code Prov[c1,c2]} (only these), {@code EventCounters\Prov} (its
 * EventCounters even when a Meter of that name exists).
 *
 * @param provider the Meter or EventSource name
 * @param source where to look for it
 * @param counters the counters asked for; empty for all of them
 */
public record CounterRequest(String provider, CounterSource source, List<String> counters) {
  private static final String EVENT_COUNTERS_PREFIX = "eventcounters\\";

  /** Copies the list and checks the name. */
  public CounterRequest {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(source, "source");
    counters = List.copyOf(counters);
  }

  /** Whether every counter of the provider is asked for. */
  public boolean wantsAll() {
    return counters.isEmpty();
  }

  /** Whether this request asks for the counter {@code name} of its provider. */
  public boolean wants(String name) {
    return counters.isEmpty() || counters.contains(name);
  }

  /**
   * Parses a {@code --counters} value: requests separated by commas (commas inside brackets
   * separate counter names). The same provider named twice is merged; asking for all of it wins
   * over a list.
   *
   * @throws IllegalArgumentException saying what is wrong and where
   */
  public static List<CounterRequest> parseList(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException(
          "no counters given: use Prov, Prov[c1,c2] or EventCounters\\Prov");
    }
    List<String> items = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    int depth = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '[') {
        if (depth > 0) {
          throw new IllegalArgumentException(
              "nested '[' at position " + (i + 1) + " in '" + text + "'");
        }
        depth++;
      } else if (c == ']') {
        if (depth == 0) {
          throw new IllegalArgumentException(
              "']' without '[' at position " + (i + 1) + " in '" + text + "'");
        }
        depth--;
      }
      if (c == ',' && depth == 0) {
        items.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    if (depth != 0) {
      throw new IllegalArgumentException("'[' without ']' in '" + text + "'");
    }
    items.add(current.toString());

    // Keyed on source and provider, so EventCounters\X and X stay two requests.
    Map<String, CounterRequest> merged = new LinkedHashMap<>();
    for (String item : items) {
      CounterRequest r = parseOne(item.strip(), text);
      String key = r.source() + "\u0000" + r.provider();
      CounterRequest before = merged.get(key);
      merged.put(key, before == null ? r : before.merge(r));
    }
    return List.copyOf(merged.values());
  }

  private static CounterRequest parseOne(String item, String whole) {
    if (item.isEmpty()) {
      throw new IllegalArgumentException("an empty provider name in '" + whole + "'");
    }
    CounterSource source = CounterSource.ANY;
    if (item.toLowerCase(Locale.ROOT).startsWith(EVENT_COUNTERS_PREFIX)) {
      source = CounterSource.EVENT_COUNTERS;
      item = item.substring(EVENT_COUNTERS_PREFIX.length()).strip();
    }
    List<String> counters = new ArrayList<>();
    String provider = item;
    int open = item.indexOf('[');
    if (open >= 0) {
      if (!item.endsWith("]")) {
        throw new IllegalArgumentException(
            "text after ']' in '" + item + "': write Prov[c1,c2],Other");
      }
      provider = item.substring(0, open).strip();
      Set<String> names = new LinkedHashSet<>();
      for (String name : item.substring(open + 1, item.length() - 1).split(",", -1)) {
        if (name.isBlank()) {
          throw new IllegalArgumentException("an empty counter name in '" + item + "'");
        }
        names.add(name.strip());
      }
      counters.addAll(names);
    }
    if (provider.isEmpty()) {
      throw new IllegalArgumentException("a counter list without a provider name: '" + item + "'");
    }
    if (provider.indexOf('\\') >= 0) {
      throw new IllegalArgumentException(
          "'"
              + provider
              + "': the only prefix is EventCounters\\ (as in EventCounters\\System.Runtime)");
    }
    return new CounterRequest(provider, source, counters);
  }

  private CounterRequest merge(CounterRequest other) {
    if (wantsAll() || other.wantsAll()) {
      return new CounterRequest(provider, source, List.of());
    }
    Set<String> names = new LinkedHashSet<>(counters);
    names.addAll(other.counters());
    return new CounterRequest(provider, source, List.copyOf(names));
  }

  /** The request as dotnet-counters would write it. */
  @Override
  public String toString() {
    String prefix = source == CounterSource.EVENT_COUNTERS ? "EventCounters\\" : "";
    return prefix + provider + (counters.isEmpty() ? "" : "[" + String.join(",", counters) + "]");
  }
}
