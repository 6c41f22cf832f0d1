package dev.clrscope.dac;

import dev.clrscope.heapwalk.TypeNames;
import java.util.ArrayList;
import java.util.List;

/**
 * Type names as dotnet-dump prints them (heapwalk's {@link TypeNames} spelling, the one every
 * command uses): the DAC's {@code System.Collections.Generic.Dictionary`2+ Entry[[System.String,
 * System.Private.CoreLib],[System.Object, System.Private.CoreLib]][]} becomes {@code
 * System.Collections.Generic.Dictionary<System.String, System.Object>+Entry[]}: assembly names
 * dropped, each nesting level given as many of the arguments as its arity ({@code `2}) says, array
 * brackets ({@code []}, {@code [,]}) kept.
 */
final class DacTypeNames {
  private DacTypeNames() {}

  static String readable(String dacName) {
    if (dacName.indexOf('`') < 0) {
      return dacName;
    }
    try {
      int[] end = new int[1];
      String name = parse(dacName, 0, end);
      return end[0] >= dacName.length() ? name : name + dacName.substring(end[0]);
    } catch (RuntimeException e) {
      // A name of a shape not foreseen stays as the DAC wrote it.
      return dacName;
    }
  }

  // The readable form of the type name at i; end[0] is where it ended (at a ',' or ']' that
  // closes a generic argument, or the end).
  private static String parse(String s, int i, int[] end) {
    int n = s.length();
    int start = i;
    while (i < n) {
      char c = s.charAt(i);
      if (c == ',' || c == ']' || (c == '[' && i + 1 < n && s.charAt(i + 1) == '[')) {
        break;
      }
      if (c == '[' && TypeNames.isArrayBracket(s, i)) {
        break;
      }
      i++;
    }
    String namePart = s.substring(start, i);
    List<String> args = new ArrayList<>();
    if (i + 1 < n && s.charAt(i) == '[' && s.charAt(i + 1) == '[') {
      i++; // the list's '['
      while (i < n && s.charAt(i) == '[') {
        int[] argEnd = new int[1];
        args.add(parse(s, i + 1, argEnd));
        i = skipAssembly(s, argEnd[0]);
        if (i < n && s.charAt(i) == ',') {
          i++;
        }
      }
      i++; // the list's ']'
    }
    StringBuilder out = new StringBuilder(TypeNames.instantiate(namePart, args));
    i = TypeNames.suffixes(s, i, out);
    end[0] = i;
    return out.toString();
  }

  // From the end of an argument's name to just past its closing ']' (over ", Assembly").
  private static int skipAssembly(String s, int i) {
    while (i < s.length() && s.charAt(i) != ']') {
      i++;
    }
    return i + 1;
  }
}
