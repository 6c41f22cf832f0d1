package dev.clrscope.monitor.http;

import java.util.regex.Pattern;

/**
 * A URL's path with what varies from request to request folded away, so that requests of one route
 * count together: {@code /orders/1234/items/5} and {@code /orders/88/items/6} are both {@code
 * /orders/{id}/items/{id}}. A segment that is a number, a GUID, or a long run of hex digits is
 * {@code {id}}; the query string is left out.
 */
public final class PathTemplate {
  private PathTemplate() {}

  /** What {@code /…/{id}/…} stands for. */
  public static final String ID = "{id}";

  private static final Pattern NUMBER = Pattern.compile("-?\\d+");
  private static final Pattern GUID =
      Pattern.compile("\\{?[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}}?");
  private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]{16,}");

  /** The template of a URL ({@code http://host:port/path?query}) or of a path alone. */
  public static String of(String url) {
    if (url == null) {
      return null;
    }
    String path = url;
    int scheme = path.indexOf("://");
    if (scheme >= 0) {
      int slash = path.indexOf('/', scheme + 3);
      path = slash < 0 ? "/" : path.substring(slash);
    }
    int end = path.length();
    for (char c : new char[] {'?', '#'}) {
      int at = path.indexOf(c);
      if (at >= 0) {
        end = Math.min(end, at);
      }
    }
    path = path.substring(0, end);
    StringBuilder sb = new StringBuilder(path.length());
    int start = 0;
    while (start <= path.length()) {
      int slash = path.indexOf('/', start);
      String segment = path.substring(start, slash < 0 ? path.length() : slash);
      sb.append(isId(segment) ? ID : segment);
      if (slash < 0) {
        break;
      }
      sb.append('/');
      start = slash + 1;
    }
    return sb.length() == 0 ? "/" : sb.toString();
  }

  private static boolean isId(String segment) {
    return !segment.isEmpty()
        && (NUMBER.matcher(segment).matches()
            || GUID.matcher(segment).matches()
            || HEX.matcher(segment).matches());
  }
}
