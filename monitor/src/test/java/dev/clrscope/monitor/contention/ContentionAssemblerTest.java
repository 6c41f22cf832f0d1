package dev.clrscope.monitor.contention;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.monitor.methods.MethodAddressMap;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.symbols.Frame;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Contention and waits from the real .NET 10 trace described in {@code ExceptionAssemblerTest}:
 * TargetApp's {@code contend monitor 2}, {@code contend lock 2} (another thread holds the lock 30
 * ms after the waiter blocked) and {@code wait 2} (an event set 40 ms after the waiter blocked).
 */
class ContentionAssemblerTest {
  private static final String TRACE =
      "/dev/clrscope/monitor/contention/net10-fail-contend-wait.nettrace";

  private final List<BlockedRecord> out = new ArrayList<>();

  private ContentionAssembler feed(MethodAddressMap methods, Duration min) throws IOException {
    ContentionAssembler a = new ContentionAssembler(methods, min, true, out::add);
    try (InputStream in = ContentionAssemblerTest.class.getResourceAsStream(TRACE);
        NetTraceReader r = NetTraceReader.open(in)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        a.accept(e);
      }
    }
    a.streamEnded();
    return a;
  }

  @Test
  void locksAndWaitsArePairedPerThreadWithTheirDurationsAndOwners() throws IOException {
    ContentionAssembler a = feed(new MethodAddressMap(), Duration.ZERO);

    List<BlockedRecord> locks = out.stream().filter(r -> r.kind().equals("lock")).toList();
    assertThat(locks).hasSize(4);
    assertThat(locks)
        .extracting(r -> r.method().name())
        .containsExactly(
            "TargetApp.Monitored.EnterContendedMonitor",
            "TargetApp.Monitored.EnterContendedMonitor",
            "TargetApp.Monitored.EnterContendedLock",
            "TargetApp.Monitored.EnterContendedLock");
    // ContentionStop_V1's DurationNs, exactly.
    assertThat(locks.get(0).durationNanos()).isEqualTo(30197118L);
    assertThat(locks)
        .allSatisfy(
            r -> {
              assertThat(r.durationMillis()).isGreaterThanOrEqualTo(30);
              assertThat(r.source()).isEqualTo("Managed");
              assertThat(r.ownerThreadId()).isNotNull().isNotEqualTo(r.threadId());
              assertThat(r.lockId()).isNotNull();
              assertThat(r.objectId()).isNotNull();
            });
    // The two kinds of lock are two locks, each held by its own holder thread.
    assertThat(locks.get(0).lockId()).isEqualTo(locks.get(1).lockId());
    assertThat(locks.get(0).lockId()).isNotEqualTo(locks.get(2).lockId());
    assertThat(locks.get(0).ownerThreadId()).isEqualTo(3502L);
    assertThat(locks.get(2).ownerThreadId()).isEqualTo(3503L);

    // The lock's own waits on its wait handle are not waits again; Thread.Join's are.
    List<BlockedRecord> waits = out.stream().filter(r -> r.kind().equals("wait")).toList();
    assertThat(waits)
        .extracting(r -> r.method().name())
        .containsExactly(
            "TargetApp.Monitored.Contend",
            "TargetApp.Monitored.WaitForSignal",
            "TargetApp.Monitored.WaitForSignal");
    assertThat(waits.subList(1, 3))
        .allSatisfy(
            r -> {
              assertThat(r.durationMillis()).isGreaterThanOrEqualTo(40);
              assertThat(r.source()).isEqualTo("Unknown");
              assertThat(r.ownerThreadId()).isNull();
            });

    BlockedSummary s = a.summary(8_000_000_000L);
    assertThat(s.byKind()).extracting(BlockedSummary.Group::kind).containsExactly("lock", "wait");
    BlockedSummary.Group lock = s.byKind().get(0);
    assertThat(lock.count()).isEqualTo(4);
    assertThat(lock.maxMillis())
        .isEqualTo(locks.stream().mapToDouble(BlockedRecord::durationMillis).max().orElseThrow());
    assertThat(lock.totalMillis())
        .isCloseTo(
            locks.stream().mapToDouble(BlockedRecord::durationMillis).sum(),
            org.assertj.core.data.Offset.offset(1e-9));
    // After the rundown, the summary names the lock's own frames too.
    BlockedSummary.Group monitor =
        s.byStack().stream()
            .filter(g -> g.method().name().equals("TargetApp.Monitored.EnterContendedMonitor"))
            .findFirst()
            .orElseThrow();
    assertThat(monitor.count()).isEqualTo(2);
    assertThat(monitor.stack())
        .extracting(Frame::name)
        .startsWith(
            "System.Threading.Monitor.Enter_Slowpath",
            "System.Threading.Monitor.Enter",
            "TargetApp.Monitored.EnterContendedMonitor");
  }

  @Test
  void minDurationLeavesOutShorterWaits() throws IOException {
    ContentionAssembler a = feed(new MethodAddressMap(), Duration.ofMillis(35));

    assertThat(out).extracting(BlockedRecord::kind).containsExactly("wait", "wait");
    assertThat(a.summary(1).byKind()).extracting(BlockedSummary.Group::count).containsExactly(2L);
  }
}
