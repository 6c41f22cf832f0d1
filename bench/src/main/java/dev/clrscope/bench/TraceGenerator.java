package dev.clrscope.bench;

import dev.clrscope.nettrace.EventMetadata;
import dev.clrscope.nettrace.Guid;
import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.NetTraceWriter;
import dev.clrscope.nettrace.StackTrace;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.TraceHeader;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Writes a large benchmark trace, deterministically (fixed seed), with {@code NetTraceWriter}: the
 * events of the runtime-written golden trace (EventSource events of every field type, GC, exception
 * and other runtime events) replicated over 16 threads, plus SampleProfiler thread samples, every
 * event with a stack of 4 to 48 frames from a pool of 4096, a sequence point every 100,000 events.
 */
public final class TraceGenerator {
  private static final long SEED = 0x5EED_2025L;
  private static final int THREADS = 16;
  private static final int STACK_POOL = 4096;
  private static final int SEQUENCE_POINT_EVERY = 100_000;

  private TraceGenerator() {}

  /** One event to replicate; the payload array is never changed after it is read. */
  @SuppressWarnings("ArrayRecordComponent")
  private record Template(EventMetadata metadata, byte[] payload) {}

  /** Returns {@code file}, writing it first unless it already holds at least {@code minBytes}. */
  public static Path ensure(Path file, long minBytes) {
    try {
      if (Files.isRegularFile(file) && Files.size(file) >= minBytes) {
        return file;
      }
      Path parent = file.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      Path tmp = Files.createTempFile(parent, "nettrace-bench", ".tmp");
      long events;
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
        events = write(out, minBytes);
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      System.err.printf("wrote %s: %,d bytes, %,d events%n", file, Files.size(file), events);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes events until at least {@code minBytes} are out; returns the event count. */
  static long write(OutputStream raw, long minBytes) {
    List<Template> eventSource = new ArrayList<>();
    List<Template> runtime = new ArrayList<>();
    TraceHeader header = readTemplates(eventSource, runtime);
    int maxId = 0;
    for (Template t : eventSource) {
      maxId = Math.max(maxId, t.metadata().metadataId());
    }
    for (Template t : runtime) {
      maxId = Math.max(maxId, t.metadata().metadataId());
    }
    Template sample =
        new Template(
            new EventMetadata(
                maxId + 1, RuntimeEvents.SAMPLE_PROFILER_PROVIDER, 0, "", 0, 0, 0, 0, List.of()),
            new byte[] {2, 0, 0, 0});

    SplittableRandom rnd = new SplittableRandom(SEED);
    StackTrace[] stacks = new StackTrace[STACK_POOL];
    for (int i = 0; i < STACK_POOL; i++) {
      long[] ips = new long[4 + rnd.nextInt(45)];
      for (int f = 0; f < ips.length; f++) {
        ips[f] = 0x7f3a_0000_0000L + rnd.nextLong(1L << 32);
      }
      stacks[i] = StackTrace.of(ips);
    }
    CountingOutputStream out = new CountingOutputStream(raw);
    int[] sequence = new int[THREADS];
    long ts = header.syncTimeQpc();
    long n = 0;
    try (NetTraceWriter w = NetTraceWriter.create(out, header)) {
      while (out.count < minBytes) {
        int r = rnd.nextInt(100);
        Template t;
        if (r < 50) {
          t = sample;
        } else if (r < 75) {
          t = eventSource.get(rnd.nextInt(eventSource.size()));
        } else {
          t = runtime.get(rnd.nextInt(runtime.size()));
        }
        int thread = rnd.nextInt(THREADS);
        ts += 1 + rnd.nextInt(2000);
        w.writeEvent(
            t.metadata(),
            ++sequence[thread],
            10_000 + thread,
            10_000 + thread,
            thread % 4,
            ts,
            Guid.EMPTY,
            Guid.EMPTY,
            stacks[rnd.nextInt(STACK_POOL)],
            false,
            t.payload());
        if (++n % SEQUENCE_POINT_EVERY == 0) {
          w.writeSequencePoint(ts);
        }
      }
    }
    return n;
  }

  /** Reads the golden trace from the classpath: EventSource events and runtime events. */
  private static TraceHeader readTemplates(List<Template> eventSource, List<Template> runtime) {
    InputStream in = TraceGenerator.class.getResourceAsStream("golden.nettrace");
    if (in == null) {
      throw new IllegalStateException("golden.nettrace missing from the classpath");
    }
    try (NetTraceReader r = NetTraceReader.open(in)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        if (!decodes(e)) {
          continue; // the runtime's mis-described decimal event: not a parse benchmark
        }
        Template t = new Template(e.metadata(), e.copyPayload());
        (e.metadata().fields().isEmpty() ? runtime : eventSource).add(t);
      }
      return r.header();
    }
  }

  private static boolean decodes(TraceEvent e) {
    try {
      e.decodeSelfDescribed();
      return true;
    } catch (NetTraceFormatException x) {
      return false;
    }
  }

  /** Counts bytes written. */
  private static final class CountingOutputStream extends OutputStream {
    private final OutputStream out;
    long count;

    CountingOutputStream(OutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }

  /** {@code TraceGenerator FILE [MB]}: writes the trace unless it exists (default 220 MB). */
  public static void main(String[] args) {
    long mb = args.length > 1 ? Long.parseLong(args[1]) : 220;
    ensure(Path.of(args.length > 0 ? args[0] : "target/nettrace-bench.nettrace"), mb << 20);
  }
}
