package dev.clrscope.heapwalk;

import java.util.ArrayList;
import java.util.List;

/**
 * How clrscope spells a type's name, the one place for every command, format and source (a core
 * read through the DAC, a live walk's events, a .gcdump file): the namespace, each nesting level
 * after a {@code +}, generic arguments in angle brackets after the level that declares them,
 * separated by a comma and a space, array brackets kept: {@code
 * System.Collections.Generic.Dictionary<System.String, TargetApp.Order>+Entry[]}.
 *
 * <p>That is how dotnet-dump (SOS and ClrMD), Visual Studio's debugger and C# itself write a
 * generic type; dotnet-gcdump and PerfView leave the space out ({@code
 * Dictionary<System.String,System.Object>}), and a .gcdump they wrote reads as {@link #canonical}
 * makes it, so that one type has one name in every table and every JSON document, whichever tool
 * took the heap.
 */
public final class TypeNames {
  /** Between two generic arguments. */
  public static final String ARGUMENT_SEPARATOR = ", ";

  private TypeNames() {}

  /**
   * A generic type definition given its arguments: each nesting level takes as many as its arity
   * ({@code `2}) says, in order; arguments left over (a name that carries no arity, as the
   * runtime's events name a nested type) go to its last level. {@code
   * System.Collections.Generic.Dictionary`2+Entry} with {@code System.String, System.Object} is
   * {@code System.Collections.Generic.Dictionary<System.String, System.Object>+Entry}.
   */
  public static String instantiate(String definition, List<String> arguments) {
    StringBuilder out = new StringBuilder(definition.length() + 16 * arguments.size());
    String[] levels = definition.split("\\+", -1);
    int next = 0;
    for (int level = 0; level < levels.length; level++) {
      String segment = levels[level];
      if (level > 0) {
        out.append('+');
      }
      int tick = arity(segment);
      int arity = 0;
      if (tick >= 0) {
        arity = Integer.parseInt(segment.substring(tick + 1));
        out.append(segment, 0, tick);
      } else {
        out.append(segment);
      }
      if (level == levels.length - 1) {
        arity = arguments.size() - next;
      }
      if (arity > 0 && next + arity <= arguments.size()) {
        out.append('<')
            .append(String.join(ARGUMENT_SEPARATOR, arguments.subList(next, next + arity)))
            .append('>');
        next += arity;
      }
    }
    return out.toString();
  }

  /** Where a level's arity ({@code `2}) starts, or -1 when it has none. */
  private static int arity(String segment) {
    int tick = segment.lastIndexOf('`');
    if (tick < 0 || tick == segment.length() - 1) {
      return -1;
    }
    for (int i = tick + 1; i < segment.length(); i++) {
      if (!Character.isDigit(segment.charAt(i))) {
        return -1;
      }
    }
    return tick;
  }

  /**
   * The readable form of a name as the runtime's events give it: {@code
   * System.Collections.Generic.List`1[TargetApp.Widget]} is {@code
   * System.Collections.Generic.List<TargetApp.Widget>}, {@code
   * Entry[System.String,System.Object][]} is {@code Entry<System.String, System.Object>[]}; a name
   * of a shape not foreseen stays as it came.
   */
  public static String readable(String runtimeName) {
    if (runtimeName == null || runtimeName.indexOf('[') < 0 && runtimeName.indexOf('`') < 0) {
      return runtimeName;
    }
    try {
      int[] end = new int[1];
      String name = runtimeType(runtimeName, 0, end);
      return end[0] >= runtimeName.length() ? name : name + runtimeName.substring(end[0]);
    } catch (RuntimeException e) {
      return runtimeName;
    }
  }

  // The type name at i, up to the ',' or ']' that ends it as an argument (end[0]) or the end.
  private static String runtimeType(String s, int i, int[] end) {
    int n = s.length();
    int start = i;
    while (i < n && s.charAt(i) != ',' && s.charAt(i) != ']' && s.charAt(i) != '[') {
      i++;
    }
    String definition = s.substring(start, i);
    List<String> arguments = new ArrayList<>();
    if (i < n && s.charAt(i) == '[' && !isArrayBracket(s, i)) {
      i++;
      while (true) {
        int[] argumentEnd = new int[1];
        arguments.add(runtimeType(s, i, argumentEnd));
        i = argumentEnd[0];
        if (i >= n) {
          throw new IllegalArgumentException("unclosed arguments");
        }
        if (s.charAt(i++) == ']') {
          break;
        }
      }
    }
    StringBuilder out = new StringBuilder(instantiate(definition, arguments));
    i = suffixes(s, i, out);
    end[0] = i;
    return out.toString();
  }

  /**
   * Copies the array brackets ({@code []}, {@code [,]}), pointers and by-refs at {@code i} of
   * {@code s} to {@code out}; where they end.
   */
  public static int suffixes(String s, int i, StringBuilder out) {
    int n = s.length();
    while (i < n) {
      char c = s.charAt(i);
      if (c == '[' && isArrayBracket(s, i)) {
        int close = s.indexOf(']', i);
        out.append(s, i, close + 1);
        i = close + 1;
      } else if (c == '*' || c == '&') {
        out.append(c);
        i++;
      } else {
        break;
      }
    }
    return i;
  }

  /** Whether the '[' at i opens an array's brackets ({@code []}, {@code [,]}, {@code [*]}). */
  public static boolean isArrayBracket(String s, int i) {
    int j = i + 1;
    while (j < s.length() && (s.charAt(j) == ',' || s.charAt(j) == '*')) {
      j++;
    }
    return j < s.length() && s.charAt(j) == ']';
  }

  /**
   * A readable name in this spelling whatever tool wrote it: the generic arguments dotnet-gcdump
   * runs together ({@code Dictionary<System.String,System.Object>}) a comma and a space apart. An
   * array's {@code [,]} and compiler-generated names ({@code <>c}, {@code <Main>d__0}) are kept.
   */
  public static String canonical(String name) {
    if (name == null || name.indexOf(',') < 0 || name.indexOf('<') < 0) {
      return name;
    }
    StringBuilder out = new StringBuilder(name.length() + 8);
    // Each open bracket: whether it opened a generic argument list.
    StringBuilder open = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '<' && opensArguments(name, i)) {
        open.append('<');
      } else if (c == '<') {
        // A compiler-generated identifier: through its closing '>'.
        int close = name.indexOf('>', i);
        if (close < 0) {
          return name;
        }
        out.append(name, i, close + 1);
        i = close;
        continue;
      } else if (c == '[') {
        open.append('[');
      } else if ((c == '>' || c == ']') && open.length() > 0) {
        open.setLength(open.length() - 1);
      } else if (c == ',' && open.length() > 0 && open.charAt(open.length() - 1) == '<') {
        out.append(ARGUMENT_SEPARATOR);
        while (i + 1 < name.length() && name.charAt(i + 1) == ' ') {
          i++;
        }
        continue;
      }
      out.append(c);
    }
    return out.toString();
  }

  /**
   * The generic arguments of a readable name, every nesting level's in order: {@code
   * System.Collections.Generic.Dictionary<System.String, System.Object>+Entry} has {@code
   * System.String} and {@code System.Object}, as the nested type's own type parameters number them.
   */
  public static List<String> arguments(String name) {
    List<String> out = new ArrayList<>();
    int depth = 0;
    int argumentStart = -1;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '<' && !opensArguments(name, i)) {
        int close = name.indexOf('>', i);
        if (close < 0) {
          break;
        }
        i = close;
      } else if (c == '<') {
        if (depth++ == 0) {
          argumentStart = i + 1;
        }
      } else if (c == '>' && depth > 0) {
        if (--depth == 0) {
          out.add(name.substring(argumentStart, i).strip());
        }
      } else if (c == ',' && depth == 1) {
        out.add(name.substring(argumentStart, i).strip());
        argumentStart = i + 1;
      }
    }
    return out;
  }

  /**
   * Whether the '<' at i opens generic arguments: it follows a name. One that begins a name (after
   * a '.', '+', ',', ' ', '<' or nothing) is part of a compiler-generated identifier.
   */
  private static boolean opensArguments(String name, int i) {
    if (i == 0) {
      return false;
    }
    char before = name.charAt(i - 1);
    return before != '.' && before != '+' && before != ',' && before != ' ' && before != '<';
  }
}
