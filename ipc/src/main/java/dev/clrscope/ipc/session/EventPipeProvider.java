package dev.clrscope.ipc.session;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One provider to enable in an EventPipe session.
 *
 * @param name the provider's name, such as {@code Microsoft-Windows-DotNETRuntime}
 * @param keywords the keyword mask
 * @param level 0 LogAlways to 5 Verbose
 * @param arguments filter arguments, in order (such as {@code EventCounterIntervalSec=1})
 * @param eventIds if not empty, only these event ids are enabled (CollectTracing5 and later)
 */
public record EventPipeProvider(
    String name, long keywords, int level, Map<String, String> arguments, List<Integer> eventIds) {

  /** Copies the collections and checks the values. */
  public EventPipeProvider {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("a provider needs a name");
    }
    if (level < 0 || level > 5) {
      throw new IllegalArgumentException("level must be 0 to 5, got " + level);
    }
    arguments = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
    eventIds = List.copyOf(eventIds);
  }

  /** A provider with no arguments and no event filter. */
  public EventPipeProvider(String name, long keywords, int level) {
    this(name, keywords, level, Map.of(), List.of());
  }

  /**
   * The arguments as the runtime reads them: {@code k=v;k=v}, a value holding {@code ;} or {@code
   * =} in double quotes; {@code null} when there are none.
   */
  public String filterData() {
    if (arguments.isEmpty()) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, String> e : arguments.entrySet()) {
      if (sb.length() > 0) {
        sb.append(';');
      }
      sb.append(e.getKey()).append('=');
      String v = e.getValue();
      if (v.indexOf(';') >= 0 || v.indexOf('=') >= 0) {
        sb.append('"').append(v).append('"');
      } else {
        sb.append(v);
      }
    }
    return sb.toString();
  }
}
