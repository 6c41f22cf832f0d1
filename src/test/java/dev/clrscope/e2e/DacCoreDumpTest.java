package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.DacSession;
import dev.clrscope.dac.HeapSegment;
import dev.clrscope.dac.HeapStatistics;
import dev.clrscope.dac.RootPath;
import dev.clrscope.dac.SegmentKind;
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
 * and per-type counts equal to the real dotnet-dump's {@code dumpheap -stat} on the same core. With
 * workstation GC (regions, the .NET 10 default), server GC (two heaps) and the segments GC (the
 * runtime's standalone {@code libclrgc.so}, which lays the heap out as .NET 6 did).
 */
class DacCoreDumpTest {
  private static final Duration DUMP_TIMEOUT = Duration.ofMinutes(3);

  /** Each GC flavour's environment. */
  private static final Map<String, Map<String, String>> GCS =
      Map.of(
          "workstation", Map.of(),
          "server", Map.of("DOTNET_gcServer", "1", "DOTNET_GCHeapCount", "2"),
          "segments", Map.of("DOTNET_GCName", "libclrgc.so"));

  /** The cores taken of each. */
  private static final Map<String, List<String>> DUMPS =
      Map.of(
          "workstation", List.of("full", "heap"),
          "server", List.of("full"),
          "segments", List.of("full"));

  @TempDir static Path dir;
  private static final Map<String, TargetProcess> apps = new HashMap<>();
  private static final Map<String, JsonNode> facts = new HashMap<>();

  @BeforeAll
  static void dump() {
    for (String gc : GCS.keySet()) {
      TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP, List.of(), GCS.get(gc));
      apps.put(gc, app);
      facts.put(gc, app.send("facts 1000"));
      for (String type : DUMPS.get(gc)) {
        dump(app.pid(), type, core(gc + "/" + type));
      }
    }
  }

  @AfterAll
  static void stop() {
    apps.values().forEach(TargetProcess::close);
  }

  /** Writes a core of {@code pid} with {@code clrscope dump --type TYPE -o CORE}. */
  static void dump(long pid, String type, Path core) {
    CliResult r =
        Clrscope.run(
            DUMP_TIMEOUT, "dump", "-p", Long.toString(pid), "--type", type, "-o", core.toString());
    assertThat(r.exitCode()).as("%s", r).isZero();
  }

  static Path core(String gcAndType) {
    return dir.resolve(gcAndType.replace('/', '-') + ".core");
  }

  static DacOptions options() {
    // The runtime directory holds the DAC: no download, no user cache.
    return DacOptions.defaults().withSymbolServer(null).withCacheDir(dir.resolve("cache"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"workstation/full", "workstation/heap", "server/full", "segments/full"})
  void everyFactTheAppStatedIsInTheCore(String type) {
    String gc = type.substring(0, type.indexOf('/'));
    TargetProcess app = apps.get(gc);
    try (DacSession p = DacSession.openCore(core(type), options())) {
      assertThat(p.isLive()).isFalse();
      assertThat(p.pid()).isEqualTo(app.pid());
      assertThat(p.runtime().info().serverGc()).isEqualTo(gc.equals("server"));
      assertThat(p.runtime().info().heapCount()).isEqualTo(gc.equals("server") ? 2 : 1);
      assertThat(p.heap().heaps()).hasSize(gc.equals("server") ? 2 : 1);
      assertThat(p.runtime().info().regions()).isEqualTo(!gc.equals("segments"));
      assertThat(p.heap().heaps().get(0).segments())
          .extracting(HeapSegment::kind)
          .contains(gc.equals("segments") ? SegmentKind.EPHEMERAL : SegmentKind.GEN0);
      assertThat(p.runtime().info().dacSource()).isEqualTo("runtime directory");
      DumpFactsCheck.assertFacts(p, facts.get(gc), app.ready());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"workstation/full", "workstation/heap", "server/full", "segments/full"})
  void dumpheapStatCountsEqualDotnetDumpsForEveryType(String type) {
    Map<Long, DotnetDump.Row> reference = DotnetDump.dumpheapStat(core(type));
    Map<Long, DotnetDump.Row> ours = new HashMap<>();
    try (DacSession p = DacSession.openCore(core(type), options())) {
      HeapStatistics stats = p.heap().statistics();
      for (HeapStatistics.TypeStat s : stats.types()) {
        ours.put(
            s.type().methodTable(),
            new DotnetDump.Row(s.type().methodTable(), s.count(), s.totalSize(), s.type().name()));
      }
    }
    assertThat(ours).isEqualTo(reference);
  }

  @Test
  void gcrootFindsTheHandlePathDotnetDumpFindsAndNamesTheStatic() {
    Path core = core("workstation/full");
    try (DacSession p = DacSession.openCore(core, options())) {
      ClrObject items = p.heap().object(firstItemsArray(p));
      long item = ((Value.Reference) items.element(500)).address();
      List<RootPath> ours = p.heap().rootPaths(item, 10, false);

      List<Long> theirs = new java.util.ArrayList<>();
      for (String line :
          DotnetDump.analyze(core, "gcroot " + Long.toHexString(item)).split("\n", -1)) {
        String l = line.strip();
        if (l.startsWith("-> ")) {
          theirs.add(Long.parseUnsignedLong(l.substring(3).strip().split("\\s+", -1)[0], 16));
        }
      }
      assertThat(theirs).as("dotnet-dump's gcroot path").endsWith(item).hasSizeGreaterThan(1);
      assertThat(ours).extracting(RootPath::objects).contains(theirs);
      assertThat(ours.get(0).root().describe()).isEqualTo("static TargetApp.DumpFacts.Items");
      assertThat(ours.get(0).objects()).containsExactly(items.address(), item);
    }
  }

  @Test
  void anAddressThatIsNoObjectIsSaidToBeNone() {
    try (DacSession p = DacSession.openCore(core("workstation/full"), options())) {
      ClrObject items = p.heap().object(firstItemsArray(p));
      long item = ((Value.Reference) items.element(0)).address();

      assertNotAnObject(p, item + 8, "0x" + Long.toHexString(item + 8) + " is not an object: 0x");
      assertNotAnObject(p, 0x1000, "0x1000 is not an object: it is not in the GC heap");
      assertNotAnObject(
          p,
          item + 4,
          "0x"
              + Long.toHexString(item + 4)
              + " is not an object address (objects are 8-byte aligned)");
      assertThatThrownBy(() -> p.runtime().type(0x1234560))
          .isInstanceOfSatisfying(
              TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.NOT_AN_OBJECT))
          .hasMessage("0x1234560 is not a method table");
      assertThatThrownBy(() -> p.runtime().exception(item))
          .isInstanceOfSatisfying(
              TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.NOT_AN_OBJECT))
          .hasMessage(
              "0x" + Long.toHexString(item) + " is not an exception: it is a TargetApp.FactItem");
    }
  }

  private static long firstItemsArray(DacSession p) {
    long[] found = new long[1];
    p.heap()
        .walk(
            o -> {
              if (found[0] == 0 && o.type().name().equals("TargetApp.FactItem[]")) {
                found[0] = o.address();
              }
            });
    return found[0];
  }

  private static void assertNotAnObject(DacSession p, long address, String messageStart) {
    assertThatThrownBy(() -> p.heap().object(address))
        .isInstanceOfSatisfying(
            TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.NOT_AN_OBJECT))
        .hasMessageStartingWith(messageStart);
  }
}
