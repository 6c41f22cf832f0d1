package dev.clrscope.cli.dacprocess;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The DAC process's command line from the front's own: the launcher's JVM options kept, those that
 * write files or hold ports left out, the class path from {@code -jar} or {@code -cp}; and how a
 * DAC process ended, read from its crash report and its status.
 */
class DacCommandLineTest {
  @Test
  void theLaunchersOptionsAndJarCarryOver() {
    DacCommandLine.JvmWords w =
        DacCommandLine.of(
            List.of(
                "java",
                "-XX:SharedArchiveFile=/x/clrscope.jsa",
                "-Xlog:cds=off",
                "-XX:+UseSerialGC",
                "-XX:ArchiveClassesAtExit=/x/new.jsa",
                "-agentlib:jdwp=transport=dt_socket,address=5005",
                "--add-opens",
                "java.base/java.io=ALL-UNNAMED",
                "-Xmx8g",
                "-jar",
                "/x/clrscope.jar",
                "analyze",
                "-Xmx1g"),
            "fallback.jar");
    assertThat(w.options())
        .containsExactly(
            "-XX:SharedArchiveFile=/x/clrscope.jsa",
            "-XX:+UseSerialGC",
            "--add-opens",
            "java.base/java.io=ALL-UNNAMED",
            "-Xmx8g");
    assertThat(w.classPath()).isEqualTo("/x/clrscope.jar");
  }

  @Test
  void aClassPathAndMainClassToo() {
    DacCommandLine.JvmWords w =
        DacCommandLine.of(
            List.of("java", "-cp", "a.jar:b.jar", "-Dx=1", "dev.clrscope.cli.Main", "analyze"),
            "fallback.jar");
    assertThat(w.options()).containsExactly("-Dx=1");
    assertThat(w.classPath()).isEqualTo("a.jar:b.jar");
    assertThat(DacCommandLine.of(List.of("java"), "fallback.jar").classPath())
        .isEqualTo("fallback.jar");
  }

  @Test
  void theCommandEndsInTheHostAndKeepsCrashesOutOfTheUsersWay() {
    List<String> c = DacCommandLine.command();
    assertThat(c.get(c.size() - 1)).isEqualTo(DacHost.MAIN);
    assertThat(c).contains("-XX:+ErrorFileToStderr", "-XX:-CreateCoredumpOnCrash");
    assertThat(c.get(0))
        .isIn(
            "/bin/sh",
            java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  @Test
  void howItEndedComesFromItsCrashReportFirst() {
    String report =
        "[0.1s][warning][cds] x\n#\n# A fatal error has been detected by the Java Runtime"
            + " Environment:\n#\n#  SIGSEGV (0xb) at pc=0x00007f, pid=1, tid=2\n#\n# JRE version:"
            + " 17\n# Problematic frame:\n# C  [libmscordaccore.so+0x1136] "
            + " CLRDataCreateInstance+0x1c\n#\n";
    DacProcess.Ending e = DacProcess.Ending.of(137, report, false);
    assertThat(e.signal()).isEqualTo("SIGSEGV");
    assertThat(e.crashed()).isTrue();
    assertThat(e.report())
        .containsExactly(
            "#  SIGSEGV (0xb) at pc=0x00007f, pid=1, tid=2",
            "# Problematic frame:",
            "# C  [libmscordaccore.so+0x1136]  CLRDataCreateInstance+0x1c");
    DacProcess.Ending killed = DacProcess.Ending.of(137, "", false);
    assertThat(killed.signal()).isEqualTo("SIGKILL");
    assertThat(killed.crashed()).isFalse();
    assertThat(DacProcess.Ending.of(3, "", false).signal()).isNull();
  }
}
