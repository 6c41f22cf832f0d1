package dev.clrscope.cli.commands.trace;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.clrscope.symbols.Frame;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * speedscope's file format (https://www.speedscope.app/file-format-schema.json): one "sampled"
 * profile per thread, in time order, frames shared.
 *
 * <p>Samples arrive interleaved across threads but speedscope wants them grouped by thread, so each
 * thread's samples go to its own temporary file (at most {@link #OPEN_FILES} open at once) and are
 * copied into the output at the end: memory holds the frame names and one small record per thread,
 * whatever the number of samples.
 */
final class SpeedscopeWriter implements ProfileWriter {
  static final String SCHEMA = "https://www.speedscope.app/file-format-schema.json";
  private static final int OPEN_FILES = 32;

  private final OutputStream out;
  private final String name;
  private final Path tempDir;
  private final Map<Frame, Integer> frameIds = new HashMap<>();
  private final List<Frame> frames = new ArrayList<>();
  private final Map<Long, ThreadSamples> threads = new LinkedHashMap<>();
  private final LinkedHashMap<Long, Writer> open =
      new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Writer> eldest) {
          if (size() > OPEN_FILES) {
            try {
              eldest.getValue().close();
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
            return true;
          }
          return false;
        }
      };

  /** What is known of one thread's samples. */
  private static final class ThreadSamples {
    final Path file;
    long count;
    double start = Double.NaN;
    double end;
    double weight;

    ThreadSamples(Path file) {
      this.file = file;
    }
  }

  SpeedscopeWriter(OutputStream out, String name) throws IOException {
    this.out = out;
    this.name = name;
    this.tempDir = Files.createTempDirectory("clrscope-speedscope");
  }

  @Override
  public void sample(StackSample s) throws IOException {
    ThreadSamples t =
        threads.computeIfAbsent(
            s.threadId(), id -> new ThreadSamples(tempDir.resolve("thread-" + id + ".json")));
    StringBuilder sb = new StringBuilder(t.count == 0 ? "[" : ",[");
    List<Frame> f = s.frames();
    for (int i = 0; i < f.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append(frameId(f.get(i)));
    }
    sb.append(']');
    writer(s.threadId()).write(sb.toString());
    t.count++;
    if (Double.isNaN(t.start)) {
      t.start = s.timeMs();
    }
    t.end = s.timeMs() + s.weightMs();
    t.weight = s.weightMs();
  }

  private int frameId(Frame frame) {
    Integer id = frameIds.get(frame);
    if (id == null) {
      id = frames.size();
      frames.add(frame);
      frameIds.put(frame, id);
    }
    return id;
  }

  private Writer writer(long threadId) throws IOException {
    Writer w = open.get(threadId);
    if (w == null) {
      w =
          Files.newBufferedWriter(
              threads.get(threadId).file,
              StandardCharsets.UTF_8,
              StandardOpenOption.CREATE,
              StandardOpenOption.APPEND);
      try {
        open.put(threadId, w);
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    }
    return w;
  }

  @Override
  public void finish() throws IOException {
    for (Writer w : open.values()) {
      w.close();
    }
    open.clear();
    JsonGenerator g =
        new JsonFactory().createGenerator(out).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    g.writeStartObject();
    g.writeStringField("$schema", SCHEMA);
    g.writeStringField("name", name);
    g.writeStringField("exporter", "clrscope");
    g.writeNumberField("activeProfileIndex", 0);
    g.writeArrayFieldStart("profiles");
    for (Map.Entry<Long, ThreadSamples> e : threads.entrySet()) {
      ThreadSamples t = e.getValue();
      g.writeStartObject();
      g.writeStringField("type", "sampled");
      g.writeStringField("name", "Thread " + e.getKey());
      g.writeStringField("unit", "milliseconds");
      g.writeNumberField("startValue", t.start);
      g.writeNumberField("endValue", t.end);
      g.writeFieldName("samples");
      g.writeRawValue("[");
      // The thread's samples were written as JSON already: copy them without parsing.
      try (BufferedReader r = Files.newBufferedReader(t.file, StandardCharsets.UTF_8)) {
        char[] buf = new char[8192];
        int n;
        while ((n = r.read(buf)) > 0) {
          g.writeRaw(buf, 0, n);
        }
      }
      g.writeRaw(']');
      g.writeArrayFieldStart("weights");
      for (long i = 0; i < t.count; i++) {
        g.writeNumber(t.weight);
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeObjectFieldStart("shared");
    g.writeArrayFieldStart("frames");
    for (Frame f : frames) {
      g.writeStartObject();
      g.writeStringField("name", f.name());
      if (f.line() != null) {
        // speedscope shows a frame's file and line, and tells frames of one name apart by them.
        g.writeStringField("file", f.file());
        g.writeNumberField("line", f.line().line());
      }
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
    g.writeEndObject();
    g.flush();
    out.flush();
  }

  @Override
  public void close() throws IOException {
    for (Writer w : open.values()) {
      w.close();
    }
    open.clear();
    try (var files = Files.list(tempDir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Files.deleteIfExists(p);
      }
    }
    Files.deleteIfExists(tempDir);
  }
}
