package dev.clrscope.monitor.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.monitor.RuntimeKeyword;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProviderSyntaxTest {
  @Test
  void nameOnlyAsksForKeywordsZeroAtInformationalAsDotnetTraceTen() {
    assertThat(ProviderSyntax.parseList("Microsoft-Windows-DotNETRuntime"))
        .containsExactly(new EventPipeProvider("Microsoft-Windows-DotNETRuntime", 0L, 4));
    assertThat(ProviderSyntax.parseList("P::,Q:*"))
        .containsExactly(new EventPipeProvider("P", 0L, 4), new EventPipeProvider("Q", -1L, 4));
  }

  @Test
  void aProviderTwoProfilesNameKeepsTheFirstProfilesSettings() {
    SessionPlan gcFirst =
        SessionPlan.build(List.of("gc-collect,dotnet-common"), null, null, null, 0L);
    SessionPlan commonFirst =
        SessionPlan.build(List.of("dotnet-common", "gc-collect"), null, null, null, 0L);
    EventPipeProvider gcRuntime =
        SessionPlan.build(List.of("gc-collect"), null, null, null, 0L).providers().get(0);
    EventPipeProvider commonRuntime =
        SessionPlan.build(List.of("dotnet-common"), null, null, null, 0L).providers().get(0);
    assertThat(gcRuntime).isNotEqualTo(commonRuntime);
    assertThat(gcFirst.providers()).contains(gcRuntime).doesNotContain(commonRuntime);
    assertThat(commonFirst.providers()).contains(commonRuntime).doesNotContain(gcRuntime);
  }

  @Test
  void keywordsLevelsAndNamedLevels() {
    assertThat(
            ProviderSyntax.parseList(
                "Microsoft-Windows-DotNETRuntime:0x8000:4,System.Runtime:1F:Warning,A::error,B:0X10"))
        .containsExactly(
            new EventPipeProvider("Microsoft-Windows-DotNETRuntime", 0x8000L, 4),
            new EventPipeProvider("System.Runtime", 0x1FL, 3),
            new EventPipeProvider("A", 0L, 2),
            new EventPipeProvider("B", 0x10L, 4));
  }

  @Test
  void levelAboveFiveIsVerboseAndFullMaskParses() {
    assertThat(ProviderSyntax.parse("P:FFFFFFFFFFFFFFFF:9"))
        .isEqualTo(new EventPipeProvider("P", -1L, 5));
  }

  @Test
  void argumentsKeepQuotedSeparatorsAndColons() {
    List<EventPipeProvider> ps =
        ProviderSyntax.parseList(
            "Microsoft-Extensions-Logging:2::FilterSpecs=App*:Information;Microsoft*:Warning,"
                + "Other:0x1:5:a=1;b=\"x;y,z\"");
    assertThat(ps).hasSize(2);
    assertThat(ps.get(0).keywords()).isEqualTo(2);
    assertThat(ps.get(0).level()).isEqualTo(4);
    assertThat(ps.get(0).arguments())
        .containsExactly(Map.entry("FilterSpecs", "App*:Information;Microsoft*:Warning"));
    assertThat(ps.get(0).filterData())
        .isEqualTo("FilterSpecs=\"App*:Information;Microsoft*:Warning\"");
    assertThat(ps.get(1).arguments()).containsExactly(Map.entry("a", "1"), Map.entry("b", "x;y,z"));
    assertThat(ps.get(1).filterData()).isEqualTo("a=1;b=\"x;y,z\"");
  }

  @Test
  void errorsNameTheFaultyPart() {
    assertThatThrownBy(() -> ProviderSyntax.parseList("P:xyz")).hasMessageContaining("'xyz'");
    assertThatThrownBy(() -> ProviderSyntax.parseList("P:1:loud")).hasMessageContaining("'loud'");
    assertThatThrownBy(() -> ProviderSyntax.parseList(":1:4")).hasMessageContaining("name");
    assertThatThrownBy(() -> ProviderSyntax.parseList("P:1:4:novalue;a=1"))
        .hasMessageContaining("key=value");
    assertThatThrownBy(() -> ProviderSyntax.parseList("P:1:4:a=\"x")).hasMessageContaining("quote");
    assertThatThrownBy(() -> ProviderSyntax.parseList(" , ")).hasMessageContaining("no provider");
  }

  @Test
  void clrEventsNamesToMask() {
    assertThat(RuntimeKeyword.parse("gc")).isEqualTo(0x1L);
    assertThat(RuntimeKeyword.parse("GC+jit+Exception+contention")).isEqualTo(0xC011L);
    assertThat(RuntimeKeyword.parse("gcheapcollect+managedheapcollect")).isEqualTo(0x800000L);
    assertThatThrownBy(() -> RuntimeKeyword.parse("gc+nosuch"))
        .hasMessageContaining("'nosuch'")
        .hasMessageContaining("gchandle");
  }

  @Test
  void rundownTakesTrueFalseOrKeywordsAsDotnetTraceTen() {
    assertThat(SessionPlan.parseRundown("true"))
        .isEqualTo(EventPipeSessionConfig.DEFAULT_RUNDOWN_KEYWORD);
    assertThat(SessionPlan.parseRundown("FALSE")).isZero();
    assertThat(SessionPlan.parseRundown("0x1")).isEqualTo(1L);
    assertThat(SessionPlan.parseRundown("80020139")).isEqualTo(0x80020139L);
    assertThat(SessionPlan.build(List.of(), "gc", null, null, 0x10L).rundownKeyword())
        .isEqualTo(0x10L);
    assertThatThrownBy(() -> SessionPlan.parseRundown("sometimes"))
        .hasMessageContaining("true, false or the rundown keywords");
  }

  @Test
  void defaultPlanIsDotnetCommonAndSampledThreadTime() {
    SessionPlan plan = SessionPlan.build(List.of(), null, null, null, null);
    assertThat(plan.providers())
        .containsExactly(
            new EventPipeProvider("Microsoft-Windows-DotNETRuntime", 0x100003801DL, 4),
            new EventPipeProvider("Microsoft-DotNETCore-SampleProfiler", 0xF00000000000L, 4));
    assertThat(plan.rundownKeyword()).isEqualTo(EventPipeSessionConfig.DEFAULT_RUNDOWN_KEYWORD);
    assertThat(plan.notes()).singleElement().asString().contains("dotnet-common");
  }

  @Test
  void profilesMergeAndProvidersWin() {
    SessionPlan plan =
        SessionPlan.build(
            List.of("cpu-sampling,gc-verbose"),
            null,
            null,
            "microsoft-windows-dotnetruntime:0x1:2,My-Source",
            0L);
    assertThat(plan.providers())
        .containsExactly(
            new EventPipeProvider("Microsoft-DotNETCore-SampleProfiler", 0xF00000000000L, 4),
            new EventPipeProvider("microsoft-windows-dotnetruntime", 0x1L, 2),
            new EventPipeProvider("My-Source", 0L, 4));
    assertThat(plan.rundownKeyword()).isZero();
    assertThat(plan.notes()).anyMatch(n -> n.contains("overrides"));
  }

  @Test
  void clrEventsWithLevelAndGcCollectRundown() {
    SessionPlan plan = SessionPlan.build(List.of(), "gc+exception", "informational", null, null);
    assertThat(plan.providers())
        .containsExactly(new EventPipeProvider("Microsoft-Windows-DotNETRuntime", 0x8001L, 4));
    assertThat(SessionPlan.build(List.of(), "gc", null, null, null).providers().get(0).level())
        .isEqualTo(5);
    SessionPlan gc = SessionPlan.build(List.of("gc-collect"), null, null, null, null);
    assertThat(gc.providers())
        .containsExactly(new EventPipeProvider("Microsoft-Windows-DotNETRuntime", 0x1L, 4));
    assertThat(gc.rundownKeyword()).isEqualTo(0x1L);
    assertThat(
            SessionPlan.build(
                    List.of("gc-collect"), null, null, null, SessionPlan.parseRundown("true"))
                .rundownKeyword())
        .isEqualTo(EventPipeSessionConfig.DEFAULT_RUNDOWN_KEYWORD);
  }

  @Test
  void providersNamingTheRuntimeMakeClrEventsIgnored() {
    SessionPlan plan =
        SessionPlan.build(List.of(), "gc", null, "Microsoft-Windows-DotNETRuntime:0x8000:4", null);
    assertThat(plan.providers())
        .containsExactly(new EventPipeProvider("Microsoft-Windows-DotNETRuntime", 0x8000L, 4));
    assertThat(plan.notes()).anyMatch(n -> n.contains("--clrevents is ignored"));
  }

  @Test
  void databaseProfileCarriesQuotedFilterSpecs() {
    SessionPlan plan = SessionPlan.build(List.of("database"), null, null, null, null);
    assertThat(plan.providers())
        .extracting(EventPipeProvider::name)
        .containsExactly(
            "System.Threading.Tasks.TplEventSource", "Microsoft-Diagnostics-DiagnosticSource");
    assertThat(plan.providers().get(1).filterData())
        .startsWith("FilterAndPayloadSpecs=\"SqlClient");
  }

  @Test
  void unknownProfileAndStrayLevelAreUsageErrors() {
    assertThatThrownBy(() -> SessionPlan.build(List.of("nope"), null, null, null, null))
        .hasMessageContaining("list-profiles");
    assertThatThrownBy(() -> SessionPlan.build(List.of(), null, "4", "P", null))
        .hasMessageContaining("--clreventlevel needs --clrevents");
  }

  @Test
  void stoppingEventOptions() {
    assertThat(StoppingEvent.of(null, null, null)).isNull();
    StoppingEvent s = StoppingEvent.of("P", "E", "a:1, b : x");
    assertThat(s.payload()).containsExactly(Map.entry("a", "1"), Map.entry("b", "x"));
    assertThatThrownBy(() -> StoppingEvent.of(null, "E", null)).hasMessageContaining("provider");
    assertThatThrownBy(() -> StoppingEvent.of("P", null, "a:1")).hasMessageContaining("event-name");
  }
}
