package dev.clrscope.symbols;

import java.util.ArrayList;
import java.util.List;

/**
 * How a managed method is named: {@code Namespace.Type.Method}, the runtime's namespace field being
 * the full type name (as TraceEvent prints it), generics readable ({@code
 * Dictionary`2[System.String,System.Int32]} becomes {@code
 * Dictionary<System.String,System.Int32>}), and with {@code (ParamTypes)} from the method's
 * signature when asked.
 */
public final class MethodNames {
  private MethodNames() {}

  /**
   * The display name of a method.
   *
   * @param namespace the runtime's MethodNamespace (the full type name), may be empty or null
   * @param name the method's name
   * @param signature the runtime's MethodSignature ({@code instance void (class System.String)})
   * @param withSignature whether to add the parameter types
   */
  public static String of(String namespace, String name, String signature, boolean withSignature) {
    String method = readable(name == null ? "" : name);
    String full =
        namespace == null || namespace.isEmpty() ? method : readable(namespace) + "." + method;
    if (!withSignature) {
      return full;
    }
    return full + "(" + String.join(",", parameterTypes(signature)) + ")";
  }

  /**
   * A type or method name with generic arguments in angle brackets: the arity mark ({@code `2}) is
   * dropped and the bracket that follows it, or any bracket that does not open an array rank
   * ({@code []}, {@code [,]}), becomes {@code <...>}.
   */
  public static String readable(String name) {
    if (name.indexOf('`') < 0 && name.indexOf('[') < 0) {
      return name;
    }
    StringBuilder sb = new StringBuilder(name.length());
    // One entry per open bracket: whether it was turned into '<'.
    boolean[] generic = new boolean[name.length()];
    int depth = 0;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '`') {
        int j = i + 1;
        while (j < name.length() && Character.isDigit(name.charAt(j))) {
          j++;
        }
        if (j > i + 1) {
          i = j - 1;
          continue;
        }
        sb.append(c);
      } else if (c == '[') {
        char next = i + 1 < name.length() ? name.charAt(i + 1) : ']';
        boolean g = next != ']' && next != ',';
        generic[depth++] = g;
        sb.append(g ? '<' : '[');
      } else if (c == ']' && depth > 0) {
        sb.append(generic[--depth] ? '>' : ']');
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /**
   * The parameter types of a runtime MethodSignature such as {@code instance bool (class
   * System.String,int32,valuetype [System.Runtime]System.Span`1<uint8>)}: what is between its
   * parentheses, split at the top-level commas, without {@code class}/{@code valuetype} and
   * assembly references.
   */
  public static List<String> parameterTypes(String signature) {
    List<String> types = new ArrayList<>();
    if (signature == null) {
      return types;
    }
    int open = signature.indexOf('(');
    int close = signature.lastIndexOf(')');
    if (open < 0 || close <= open + 1) {
      return types;
    }
    String inner = signature.substring(open + 1, close);
    int depth = 0;
    int from = 0;
    for (int i = 0; i <= inner.length(); i++) {
      char c = i < inner.length() ? inner.charAt(i) : ',';
      if (c == '<' || c == '[' || c == '(') {
        depth++;
      } else if (c == '>' || c == ']' || c == ')') {
        depth--;
      } else if (c == ',' && depth <= 0) {
        types.add(parameterType(inner.substring(from, i).strip()));
        from = i + 1;
      }
    }
    return types;
  }

  private static String parameterType(String t) {
    for (String prefix : new String[] {"class ", "valuetype "}) {
      if (t.startsWith(prefix)) {
        t = t.substring(prefix.length()).strip();
      }
    }
    if (t.startsWith("[")) {
      int end = t.indexOf(']');
      if (end > 0) {
        t = t.substring(end + 1);
      }
    }
    return readable(t);
  }
}
