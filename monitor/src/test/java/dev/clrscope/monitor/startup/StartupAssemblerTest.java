package dev.clrscope.monitor.startup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.ipc.launch.LaunchClock;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The start of TargetApp ({@code --no-stdin --exit-after-ms 100 --exit-code 3}) on .NET 10,
 * recorded with {@code trace collect --no-rundown --providers
 * Microsoft-Windows-DotNETRuntime:0x800000001D:5 -- dotnet TargetApp.dll ...}.
 */
class StartupAssemblerTest {
  private static final String TRACE = "/dev/clrscope/monitor/startup/net10-startup.nettrace";

  private final List<StartupRecord> out = new ArrayList<>();

  private StartupAssembler feed(boolean everyRow) throws IOException {
    StartupAssembler a = new StartupAssembler(everyRow, 3, out::add);
    try (InputStream in = StartupAssemblerTest.class.getResourceAsStream(TRACE);
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
  void theAppsAssemblyLoadsBeforeItsMainIsReached() throws IOException {
    StartupSummary s = feed(false).summary(158_598_568L);

    assertThat(out)
        .extracting(StartupRecord::kind)
        .containsOnly(StartupRecord.ASSEMBLY, StartupRecord.MAIN);
    StartupRecord app =
        out.stream().filter(r -> r.name().equals("TargetApp")).findFirst().orElseThrow();
    assertThat(app.detail()).endsWith("/TargetApp/TargetApp.dll");
    assertThat(app.durationNanos()).isEqualTo(84_877L);
    StartupRecord main =
        out.stream().filter(r -> r.kind().equals(StartupRecord.MAIN)).findFirst().orElseThrow();
    assertThat(main.name()).isEqualTo("TargetApp.Program.Main");
    assertThat(main.offsetNanos()).isEqualTo(44_190_319L).isGreaterThan(app.offsetNanos());
    assertThat(s.mainOffsetNanos()).isEqualTo(main.offsetNanos());
    assertThat(s.mainMethod()).isEqualTo("TargetApp.Program.Main");

    assertThat(s.categories())
        .extracting(StartupSummary.Category::kind)
        .containsExactly("assembly", "jit", "type");
    StartupSummary.Category assemblies = s.categories().get(0);
    assertThat(assemblies.count()).isEqualTo(out.size() - 1);
    assertThat(assemblies.beforeMain()).isEqualTo(3);
    assertThat(assemblies.slowest()).hasSize(3);
    assertThat(assemblies.slowest().get(0)).isEqualTo(app);
    assertThat(assemblies.totalNanos())
        .isEqualTo(
            out.stream()
                .filter(r -> r.kind().equals(StartupRecord.ASSEMBLY))
                .mapToLong(StartupRecord::durationNanos)
                .sum());
  }

  /**
   * For a launched child, Main's moment on the runtime's clock is set against the moments clrscope
   * noted on the same clock: the resume to Main, and the start without clrscope's wait.
   */
  @Test
  void aLaunchedChildsStartIsCountedFromItsLaunchWithoutTheWaitForTheTool() throws IOException {
    long syncQpc;
    try (InputStream in = StartupAssemblerTest.class.getResourceAsStream(TRACE);
        NetTraceReader r = NetTraceReader.open(in)) {
      r.next();
      syncQpc = r.header().syncTimeQpc();
      assertThat(r.header().qpcFrequency()).isEqualTo(1_000_000_000L);
    }
    long mainClock = syncQpc + 44_190_319L;
    StartupAssembler a = feed(false);
    LaunchClock launch =
        new LaunchClock(mainClock - 60_000_000L, mainClock - 50_000_000L, mainClock - 40_000_000L);

    StartupSummary.Launch l = a.summary(158_598_568L, launch).launch();

    assertThat(l.startToWaitNanos()).isEqualTo(10_000_000L);
    assertThat(l.heldNanos()).isEqualTo(10_000_000L);
    assertThat(l.resumeToMainNanos()).isEqualTo(40_000_000L);
    assertThat(l.startToMainNanos()).isEqualTo(50_000_000L);
    assertThat(a.summary(158_598_568L).launch()).isNull();
  }

  @Test
  void everyRowCountsAsTheSummaryDoesAndNestedTypeLoadsCountOnce() throws IOException {
    StartupSummary s = feed(true).summary(158_598_568L);

    for (StartupSummary.Category c : s.categories()) {
      assertThat(out.stream().filter(r -> r.kind().equals(c.kind())).count())
          .as(c.kind())
          .isEqualTo(c.count());
    }
    StartupSummary.Category types = s.categories().get(2);
    long inclusive =
        out.stream()
            .filter(r -> r.kind().equals(StartupRecord.TYPE))
            .mapToLong(StartupRecord::durationNanos)
            .sum();
    // Loading a type loads others inside it (its generic interfaces, its fields' types): the
    // total sums the outermost loads only.
    assertThat(types.totalNanos()).isPositive().isLessThan(inclusive);
    assertThat(types.slowest().get(0).name())
        .isEqualTo("System.WeakReference`1<System.Diagnostics.Tracing.EventSource>");
    assertThat(types.slowest().get(0).durationNanos()).isEqualTo(1_638_594L);
  }

  @Test
  void mainIsTheAppsOwnEntryMethod() {
    assertThat(StartupAssembler.isMain("TargetApp.Program", "Main")).isTrue();
    assertThat(StartupAssembler.isMain("Program", "<Main>$")).isTrue();
    assertThat(StartupAssembler.isMain("System.Threading.Tasks.Task", "Main")).isFalse();
    assertThat(StartupAssembler.isMain("TargetApp.Program", "MainLoop")).isFalse();
  }
}
