package dev.clrscope.cli.commands.analyze;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The words after a command's name at analyze's prompt, parsed as SOS parses them: flags ({@code
 * -stat}) and options with a value ({@code -type Widget}) in any case and any order, then the
 * positional words (an address, a generation). Addresses are hexadecimal with or without {@code 0x}
 * (and WinDbg's {@code `} separator), as SOS takes them.
 */
final class SosArgs {
  /**
   * What a command takes.
   *
   * @param flags options without a value, lower case with their dash ({@code -stat})
   * @param valued options followed by a value ({@code -type})
   * @param minPositional the fewest positional words
   * @param maxPositional the most positional words
   */
  record Spec(Set<String> flags, Set<String> valued, int minPositional, int maxPositional) {
    /** Copies the sets. */
    Spec {
      flags = Set.copyOf(flags);
      valued = Set.copyOf(valued);
    }

    /** A command that takes nothing. */
    static Spec none() {
      return new Spec(Set.of(), Set.of(), 0, 0);
    }

    /** A command that takes one positional word (an address). */
    static Spec one() {
      return new Spec(Set.of(), Set.of(), 1, 1);
    }

    /** These options, then between {@code min} and {@code max} positional words. */
    static Spec of(Set<String> flags, Set<String> valued, int min, int max) {
      return new Spec(flags, valued, min, max);
    }
  }

  private final String command;
  private final String synopsis;
  private final Set<String> flags = new HashSet<>();
  private final Map<String, String> values = new HashMap<>();
  private final List<String> positional = new ArrayList<>();

  private SosArgs(String command, String synopsis) {
    this.command = command;
    this.synopsis = synopsis;
  }

  /**
   * Splits a command line into words: spaces separate them, double quotes keep a word's spaces
   * ({@code -type "Dictionary<System.String, System.Int32>"}).
   */
  static List<String> split(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean quoted = false;
    boolean any = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '"') {
        quoted = !quoted;
        any = true;
      } else if (!quoted && Character.isWhitespace(c)) {
        if (any) {
          words.add(word.toString());
          word.setLength(0);
          any = false;
        }
      } else {
        word.append(c);
        any = true;
      }
    }
    if (quoted) {
      throw new SosUsageException("a quote is not closed: " + line.strip());
    }
    if (any) {
      words.add(word.toString());
    }
    return words;
  }

  /**
   * Parses {@code words} (after the command's name) against {@code spec}.
   *
   * @throws SosUsageException naming what is wrong and the command's synopsis
   */
  static SosArgs parse(String command, String synopsis, List<String> words, Spec spec) {
    SosArgs a = new SosArgs(command, synopsis);
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      String lower = w.toLowerCase(Locale.ROOT);
      if (spec.flags().contains(lower)) {
        a.flags.add(lower);
      } else if (spec.valued().contains(lower)) {
        if (i + 1 >= words.size()) {
          throw a.usage(w + " needs a value");
        }
        a.values.put(lower, words.get(++i));
      } else if (w.startsWith("-") && w.length() > 1 && !isNumber(w)) {
        throw a.usage("unknown option " + w);
      } else {
        a.positional.add(w);
      }
    }
    if (a.positional.size() < spec.minPositional()) {
      throw a.usage(spec.minPositional() == 1 ? "give an argument" : "too few arguments");
    }
    if (a.positional.size() > spec.maxPositional()) {
      throw a.usage(
          "unexpected "
              + String.join(" ", a.positional.subList(spec.maxPositional(), a.positional.size())));
    }
    return a;
  }

  private static boolean isNumber(String w) {
    try {
      Long.parseLong(w);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** A usage error of this command: what is wrong, then how it is used. */
  SosUsageException usage(String what) {
    return new SosUsageException(command + ": " + what + " (usage: " + synopsis + ")");
  }

  /** Whether the flag was given. */
  boolean has(String flag) {
    return flags.contains(flag);
  }

  /** The value of an option, or null. */
  String value(String option) {
    return values.get(option);
  }

  /** The positional words. */
  List<String> positional() {
    return positional;
  }

  /** Positional word {@code i}, or null. */
  String positional(int i) {
    return i < positional.size() ? positional.get(i) : null;
  }

  /** Positional word {@code i} read as an address. */
  long address(int i) {
    return address(positional.get(i), "address");
  }

  /** An option's value read as an address, or {@code otherwise} when not given. */
  long addressOption(String option, long otherwise) {
    String v = values.get(option);
    return v == null ? otherwise : address(v, option + " value");
  }

  /**
   * An option's value read as a number (decimal, or hexadecimal after {@code 0x}), or {@code
   * otherwise} when not given.
   */
  long numberOption(String option, long otherwise) {
    String v = values.get(option);
    if (v == null) {
      return otherwise;
    }
    Long n = number(v);
    if (n == null || n < 0) {
      throw usage(option + " takes a number (0 or more), not " + v);
    }
    return n;
  }

  private long address(String word, String what) {
    Long a = parseAddress(word);
    if (a == null) {
      throw usage("not an " + what + ": " + word + " (hexadecimal, with or without 0x)");
    }
    return a;
  }

  /** A hexadecimal address, with or without {@code 0x} and WinDbg's {@code `}; null if none. */
  static Long parseAddress(String word) {
    String w = word.replace("`", "");
    if (w.startsWith("0x") || w.startsWith("0X")) {
      w = w.substring(2);
    }
    if (w.isEmpty() || w.length() > 16) {
      return null;
    }
    try {
      return Long.parseUnsignedLong(w, 16);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** A decimal number, or hexadecimal after {@code 0x}; null if none. */
  static Long number(String word) {
    try {
      if (word.startsWith("0x") || word.startsWith("0X")) {
        return Long.parseUnsignedLong(word.substring(2), 16);
      }
      return Long.parseLong(word.replace(",", ""));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
