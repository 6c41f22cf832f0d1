package dev.clrscope.cli.commands.trace;

import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimePayload;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Instruction pointers to managed method names, from the method load events of a trace
 * (MethodLoadVerbose while it ran, MethodDCStart/StopVerbose in the rundown): each gives a method's
 * code start address and size. A name is {@code Namespace.Method}, as TraceEvent prints it (the
 * namespace being the full type name); an address no method covers stays a hex address.
 */
public final class MethodAddressMap {
  /** A method's code range. */
  private record Range(long start, long size, String name) {}

  private final TreeMap<Long, Range> byStart = new TreeMap<>(Long::compareUnsigned);

  /** Reads every method event of a trace (leniently: a truncated trace gives what it has). */
  public static MethodAddressMap read(Path trace) {
    MethodAddressMap map = new MethodAddressMap();
    try (NetTraceReader r = NetTraceReader.open(trace, true)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        map.accept(e);
      }
    }
    return map;
  }

  /** Takes the method range from {@code e} if it is a method load or rundown event. */
  public void accept(TraceEvent e) {
    int id = e.eventId();
    String provider = e.providerName();
    boolean methodEvent =
        (RuntimeEvents.RUNTIME_PROVIDER.equals(provider) && (id == 143 || id == 144))
            || (RuntimeEvents.RUNDOWN_PROVIDER.equals(provider) && (id == 143 || id == 144));
    if (!methodEvent) {
      return;
    }
    Optional<RuntimePayload> decoded;
    try {
      decoded = RuntimeEvents.decode(e);
    } catch (RuntimeException ex) {
      // One malformed payload loses one name, not the conversion.
      return;
    }
    if (decoded.isPresent() && decoded.get() instanceof RuntimePayload.MethodLoadVerbose m) {
      if (m.methodStartAddress() == 0 || m.methodSize() <= 0) {
        return;
      }
      String ns = m.methodNamespace() == null ? "" : m.methodNamespace();
      String name = ns.isEmpty() ? m.methodName() : ns + "." + m.methodName();
      byStart.put(m.methodStartAddress(), new Range(m.methodStartAddress(), m.methodSize(), name));
    }
  }

  /** The method containing {@code ip}, or {@code 0x...} when no known method does. */
  public String name(long ip) {
    Map.Entry<Long, Range> e = byStart.floorEntry(ip);
    if (e != null) {
      Range r = e.getValue();
      if (Long.compareUnsigned(ip - r.start(), r.size()) < 0) {
        return r.name();
      }
    }
    return "0x" + Long.toHexString(ip);
  }

  /** Number of known methods. */
  public int size() {
    return byStart.size();
  }
}
