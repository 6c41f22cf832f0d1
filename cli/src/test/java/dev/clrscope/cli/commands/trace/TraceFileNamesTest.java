package dev.clrscope.cli.commands.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceFileNamesTest {
  @Test
  void entryAssemblyWins() {
    assertThat(TraceFileNames.appName("TargetApp", List.of("/usr/bin/dotnet", "x.dll")))
        .isEqualTo("TargetApp");
  }

  @Test
  void dllArgumentThenProgramName() {
    assertThat(TraceFileNames.appName(null, List.of("dotnet", "bin/Release/My App.dll", "--x")))
        .isEqualTo("My_App");
    assertThat(TraceFileNames.appName("", List.of("/opt/app/Server", "run"))).isEqualTo("Server");
    assertThat(TraceFileNames.appName(null, List.of("C:\\apps\\Tool.exe"))).isEqualTo("Tool");
    assertThat(TraceFileNames.appName(null, List.of())).isEqualTo("trace");
  }

  @Test
  void defaultAndConvertedNames() {
    assertThat(TraceFileNames.defaultTraceName("TargetApp", LocalDateTime.of(2025, 3, 4, 5, 6, 7)))
        .isEqualTo("TargetApp_20250304_050607.nettrace");
    Path t = Path.of("/tmp/x/app_1.nettrace");
    assertThat(TraceFileNames.convertedName(t, ConversionFormat.speedscope))
        .isEqualTo(Path.of("/tmp/x/app_1.speedscope.json"));
    assertThat(TraceFileNames.convertedName(t, ConversionFormat.chromium))
        .isEqualTo(Path.of("/tmp/x/app_1.chromium.json"));
    assertThat(TraceFileNames.convertedName(t, ConversionFormat.folded))
        .isEqualTo(Path.of("/tmp/x/app_1.folded.txt"));
  }
}
