package dev.clrscope.heapwalk;

/**
 * Type names as dotnet-gcdump and PerfView print them, so that a live snapshot and a .gcdump name a
 * type alike: the runtime's {@code System.Collections.Generic.List`1[TargetApp.Widget]} becomes
 * {@code System.Collections.Generic.List<TargetApp.Widget>}, a nested generic's {@code
 * Entry[System.String,System.Object][]} becomes {@code Entry<System.String,System.Object>[]}; array
 * brackets ({@code []}, {@code [,]}) stay.
 */
public final class TypeNames {
  private TypeNames() {}

  /** The readable form of a runtime type name. */
  public static String readable(String runtimeName) {
    if (runtimeName == null || runtimeName.indexOf('[') < 0) {
      return runtimeName;
    }
    StringBuilder out = new StringBuilder(runtimeName.length());
    // For each open bracket: whether it opened a generic argument list.
    boolean[] generic = new boolean[runtimeName.length()];
    int depth = 0;
    for (int i = 0; i < runtimeName.length(); i++) {
      char c = runtimeName.charAt(i);
      if (c == '`') {
        // The generic arity: `1, `2 ... is dropped, as dotnet-gcdump drops it.
        int j = i + 1;
        while (j < runtimeName.length() && Character.isDigit(runtimeName.charAt(j))) {
          j++;
        }
        if (j > i + 1) {
          i = j - 1;
          continue;
        }
        out.append(c);
      } else if (c == '[') {
        char next = i + 1 < runtimeName.length() ? runtimeName.charAt(i + 1) : ']';
        boolean isGeneric = next != ']' && next != ',' && next != '*';
        generic[depth++] = isGeneric;
        out.append(isGeneric ? '<' : '[');
      } else if (c == ']' && depth > 0) {
        out.append(generic[--depth] ? '>' : ']');
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
