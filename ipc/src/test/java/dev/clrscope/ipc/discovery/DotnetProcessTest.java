package dev.clrscope.ipc.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.ipc.transport.IpcEndpoint;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DotnetProcessTest {
  private static DotnetProcess process(String name, String commandLine) {
    return new DotnetProcess(
        10, 10, name, commandLine, new IpcEndpoint.UnixSocket(Path.of("/tmp/s")));
  }

  @Test
  void dotnetHostedApp() {
    DotnetProcess p = process("dotnet", "dotnet /x/App.dll --port 80");
    assertThat(p.knownNames()).containsExactly("dotnet", "App");
    assertThat(p.isNamed("App")).isTrue();
    assertThat(p.isNamed("app")).isTrue();
    assertThat(p.isNamed("DOTNET")).isTrue();
    assertThat(p.isNamed("App.dll")).isFalse();
    assertThat(p.isNamed("x")).isFalse();
  }

  @Test
  void dotnetExecWithOptionsFindsTheFirstDll() {
    DotnetProcess p =
        process("dotnet", "/usr/bin/dotnet exec --runtimeconfig a.json /srv/Web.Api.DLL b.dll");
    assertThat(p.knownNames()).containsExactly("dotnet", "Web.Api");
  }

  @Test
  void apphost() {
    DotnetProcess p = process("MyApp", "/x/MyApp");
    assertThat(p.knownNames()).containsExactly("MyApp");
    assertThat(p.isNamed("myapp")).isTrue();
  }

  @Test
  void truncatedKernelNameAlsoMatchesTheFullExecutableName() {
    DotnetProcess p = process("VeryLongService", "/opt/VeryLongServiceName --x");
    assertThat(p.knownNames()).containsExactly("VeryLongService", "VeryLongServiceName");
  }

  @Test
  void windowsExecutable() {
    DotnetProcess p = process(null, "C:\\x\\App.exe arg");
    assertThat(p.knownNames()).containsExactly("App.exe", "App");
    assertThat(p.isNamed("app")).isTrue();
    assertThat(p.isNamed("APP.EXE")).isTrue();
  }

  @Test
  void windowsDotnetExe() {
    DotnetProcess p = process(null, "dotnet.exe C:\\x\\Tool.dll run");
    assertThat(p.knownNames()).containsExactly("dotnet.exe", "Tool", "dotnet");
  }

  @Test
  void unreadableNamesGiveNothingToMatch() {
    DotnetProcess p = process(null, null);
    assertThat(p.knownNames()).isEmpty();
    assertThat(p.isNamed("dotnet")).isFalse();
    assertThat(process("", "  ").knownNames()).isEmpty();
  }
}
