package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrProcess;
import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.HeapStatistics;
import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.TargetException.Problem;
import dev.clrscope.dac.Value;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The analyze model (the dac module) on real core files of TargetApp after {@code facts 1000},
 * written by {@code clrscope dump --type full} and {@code --type heap}: every fact the app stated,
 * and per-type counts equal to the real dotnet-dump's {@code dumpheap -stat} on the same core.
 */
class DacCoreDumpTest {
  private static final Duration DUMP_TIMEOUT = Duration.ofMinutes(3);

  @TempDir static Path dir;
  private static TargetProcess app;
  private static JsonNode facts;

  @BeforeAll
  static void dump() {
    app = TargetProcess.start(DotnetApps.TARGET_APP);
    facts = app.send("facts 1000");
    for (String type : List.of("full", "heap")) {
      CliResult r =
          Clrscope.run(
              DUMP_TIMEOUT,
              "dump",
              "-p",
              Long.toString(app.pid()),
              "--type",
              type,
              "-o",
              core(type).toString());
      assertThat(r.exitCode()).as("%s", r).isZero();
    }
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  static Path core(String type) {
    return dir.resolve(type + ".core");
  }

  static DacOptions options() {
    // The runtime directory holds the DAC: no download, no user cache.
    return DacOptions.defaults().withSymbolServer(null).withCacheDir(dir.resolve("cache"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"full", "heap"})
  void everyFactTheAppStatedIsInTheCore(String type) {
    try (ClrProcess p = ClrProcess.openCore(core(type), options())) {
      assertThat(p.isLive()).isFalse();
      assertThat(p.pid()).isEqualTo(app.pid());
      assertThat(p.runtime().serverGc()).isFalse();
      assertThat(p.runtime().regions()).isTrue();
      assertThat(p.runtime().dacSource()).isEqualTo("runtime directory");
      DumpFactsCheck.assertFacts(p, facts, app.ready());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"full", "heap"})
  void dumpheapStatCountsEqualDotnetDumpsForEveryType(String type) {
    Map<Long, DotnetDump.Row> reference = DotnetDump.dumpheapStat(core(type));
    Map<Long, DotnetDump.Row> ours = new HashMap<>();
    try (ClrProcess p = ClrProcess.openCore(core(type), options())) {
      HeapStatistics stats = p.statistics();
      for (HeapStatistics.TypeStat s : stats.types()) {
        ours.put(
            s.type().methodTable(),
            new DotnetDump.Row(s.type().methodTable(), s.count(), s.totalSize(), s.type().name()));
      }
    }
    assertThat(ours).isEqualTo(reference);
  }

  @Test
  void anAddressThatIsNoObjectIsSaidToBeNone() {
    try (ClrProcess p = ClrProcess.openCore(core("full"), options())) {
      ClrObject items = p.object(firstItemsArray(p));
      long item = ((Value.Reference) items.element(0)).address();

      assertNotAnObject(p, item + 8, "0x" + Long.toHexString(item + 8) + " is not an object: 0x");
      assertNotAnObject(p, 0x1000, "0x1000 is not an object: it is not in the GC heap");
      assertNotAnObject(
          p,
          item + 4,
          "0x"
              + Long.toHexString(item + 4)
              + " is not an object address (objects are 8-byte aligned)");
      assertThatThrownBy(() -> p.type(0x1234560))
          .isInstanceOfSatisfying(
              TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.NOT_AN_OBJECT))
          .hasMessage("0x1234560 is not a method table");
      assertThatThrownBy(() -> p.exception(item))
          .isInstanceOfSatisfying(
              TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.NOT_AN_OBJECT))
          .hasMessage(
              "0x" + Long.toHexString(item) + " is not an exception: it is a TargetApp.FactItem");
    }
  }

  private static long firstItemsArray(ClrProcess p) {
    long[] found = new long[1];
    p.walkHeap(
        o -> {
          if (found[0] == 0 && o.type().name().equals("TargetApp.FactItem[]")) {
            found[0] = o.address();
          }
        });
    return found[0];
  }

  private static void assertNotAnObject(ClrProcess p, long address, String messageStart) {
    assertThatThrownBy(() -> p.object(address))
        .isInstanceOfSatisfying(
            TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.NOT_AN_OBJECT))
        .hasMessageStartingWith(messageStart);
  }
}
