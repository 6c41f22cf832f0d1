package dev.clrscope.bench;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One operation = one whole pass over the generated 220 MB trace (see {@link TraceGenerator}), in a
 * forked JVM limited to 64 MB of heap. Events/s = events per pass (printed by {@link
 * ParseThroughput}) / seconds per operation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx64m", "-XX:+UseSerialGC"})
public class NetTraceParseBenchmark {
  private Path file;

  @Setup(Level.Trial)
  public void setUp() {
    file = TraceGenerator.ensure(Path.of(Bench.DEFAULT_TRACE), Bench.MIN_BYTES);
  }

  @Benchmark
  public long headers() {
    return Decoding.HEADERS.run(file).checksum();
  }

  @Benchmark
  public long typed() {
    return Decoding.TYPED.run(file).checksum();
  }

  @Benchmark
  public long eventFields() {
    return Decoding.FIELDS.run(file).checksum();
  }
}
