package dev.clrscope.cli.commands.trace;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.clrscope.monitor.trace.EventNames;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.EventFields;
import dev.clrscope.symbols.Frame;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Chrome trace-event format (for chrome://tracing, Perfetto and Edge's performance tool), laid
 * out as dotnet-trace writes it so that its readers work unchanged:
 *
 * <pre>
 * {"traceEvents":[ B/E duration events, "cat":"sampleEvent" ... ],
 *  "displayTimeUnit":"ms", "otherData":{"name": trace file name}}
 * </pre>
 *
 * Each thread's samples become nested B/E events: a frame begins when a sample first shows it and
 * ends when a later sample of that thread no longer does. With {@code allEvents}, every other event
 * is added as an instant event ({@code "ph":"i"}) with its payload as args; dotnet-trace leaves
 * them out, and on a busy trace they are most of the file. Memory holds one open stack per thread.
 */
final class ChromiumTraceWriter implements ProfileWriter {
  private final JsonGenerator g;
  private final int pid;
  private final String name;
  private final boolean allEvents;
  private final Map<Long, List<String>> openStacks = new HashMap<>();
  private final Map<Long, Double> lastEnd = new HashMap<>();

  ChromiumTraceWriter(OutputStream out, int pid, String name, boolean allEvents)
      throws IOException {
    this.g =
        new JsonFactory().createGenerator(out).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    this.pid = pid;
    this.name = name;
    this.allEvents = allEvents;
    g.writeStartObject();
    g.writeArrayFieldStart("traceEvents");
  }

  @Override
  public void sample(StackSample s) throws IOException {
    List<String> before = openStacks.getOrDefault(s.threadId(), List.of());
    List<String> now = new ArrayList<>(s.frames().size());
    for (Frame f : s.frames()) {
      now.add(f.text());
    }
    int common = 0;
    while (common < before.size()
        && common < now.size()
        && before.get(common).equals(now.get(common))) {
      common++;
    }
    double ts = s.timeMs() * 1000;
    for (int i = before.size() - 1; i >= common; i--) {
      duration("E", before.get(i), s.threadId(), ts);
    }
    for (int i = common; i < now.size(); i++) {
      duration("B", now.get(i), s.threadId(), ts);
    }
    openStacks.put(s.threadId(), now);
    lastEnd.put(s.threadId(), (s.timeMs() + s.weightMs()) * 1000);
  }

  private void duration(String phase, String name, long tid, double ts) throws IOException {
    g.writeStartObject();
    g.writeStringField("name", name);
    g.writeStringField("cat", "sampleEvent");
    g.writeStringField("ph", phase);
    g.writeNumberField("ts", ts);
    g.writeNumberField("pid", pid);
    g.writeNumberField("tid", tid);
    g.writeEndObject();
  }

  @Override
  public void event(TraceEvent e, double timeMs) throws IOException {
    if (!allEvents) {
      return;
    }
    g.writeStartObject();
    g.writeStringField("name", EventNames.displayName(e));
    g.writeStringField("cat", e.providerName());
    g.writeStringField("ph", "i");
    g.writeStringField("s", "t");
    g.writeNumberField("ts", timeMs * 1000);
    g.writeNumberField("pid", pid);
    g.writeNumberField("tid", e.threadId());
    Map<String, Object> fields;
    try {
      fields = EventFields.of(e).asMap();
    } catch (RuntimeException ex) {
      // An undecodable payload only loses its args.
      fields = Map.of();
    }
    if (!fields.isEmpty()) {
      g.writeFieldName("args");
      g.writeRawValue(EventJson.valueJson(fields));
    }
    g.writeEndObject();
  }

  @Override
  public void finish() throws IOException {
    for (Map.Entry<Long, List<String>> e : openStacks.entrySet()) {
      List<String> stack = e.getValue();
      double ts = lastEnd.get(e.getKey());
      for (int i = stack.size() - 1; i >= 0; i--) {
        duration("E", stack.get(i), e.getKey(), ts);
      }
    }
    g.writeEndArray();
    g.writeStringField("displayTimeUnit", "ms");
    g.writeObjectFieldStart("otherData");
    g.writeStringField("name", name);
    g.writeEndObject();
    g.writeEndObject();
    g.flush();
  }
}
