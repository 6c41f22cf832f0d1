package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The AppCDS archive the launcher and the DAC process start with holds what the DAC process runs:
 * the build trains it on a core of TargetApp (cli/src/build/appcds-core.sh), since a lambda is
 * archived only once its call site has run. Without that training every DAC command spins about 120
 * classes at start, and this fails rather than the commands getting slower unseen.
 */
class AppCdsArchiveTest {
  @Test
  void theArchiveHoldsTheDacProcessesLambdasFromACore() throws IOException, InterruptedException {
    Path target = Clrscope.root().resolve("cli").resolve("target");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-XX:SharedArchiveFile=" + target.resolve("clrscope.jsa"),
                "-XX:+PrintSharedArchiveAndExit",
                "-cp",
                target.resolve("clrscope.jar").toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).as("the archive is valid for this jar").doesNotContain("archive is invalid");
    List<String> lambdas =
        out.lines().filter(l -> l.contains("$$Lambda")).map(String::strip).toList();
    // Call sites only a DAC process on a real core runs: its DAC calls, the heap walk, the
    // graph's roots, the dominators, triage's checks.
    for (String owner :
        List.of(
            "dev.clrscope.dac.interop.SosDac$$Lambda",
            "dev.clrscope.dac.interop.DataTargetObject$$Lambda",
            "dev.clrscope.dac.ExactHeap$$Lambda",
            "dev.clrscope.dac.HeapWalker$$Lambda",
            "dev.clrscope.dac.RootReader$$Lambda",
            "dev.clrscope.heapwalk.Dominators$$Lambda",
            "dev.clrscope.triage.")) {
      assertThat(lambdas).as(owner).anyMatch(l -> l.contains(owner));
    }
    assertThat(lambdas.stream().filter(l -> l.contains("dev.clrscope.dac.interop.SosDac$$Lambda")))
        .as("SosDac's DAC calls")
        .hasSizeGreaterThanOrEqualTo(15);
  }
}
