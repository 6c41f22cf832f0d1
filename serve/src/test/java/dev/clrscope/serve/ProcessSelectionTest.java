package dev.clrscope.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.ipc.discovery.DotnetProcess;
import dev.clrscope.ipc.transport.IpcEndpoint;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProcessSelectionTest {
  private static DotnetProcess process(long pid, String name, String commandLine) {
    return new DotnetProcess(
        pid, pid, name, commandLine, new IpcEndpoint.UnixSocket(Path.of("/tmp/x" + pid)));
  }

  private final DotnetProcess app = process(42, "dotnet", "/usr/bin/dotnet /srv/CountersApp.dll");
  private final DotnetProcess other = process(43, "Worker", "/srv/Worker");

  @Test
  void noPidAndNoNameSelectsEveryProcess() {
    ProcessSelection all = ProcessSelection.all();
    assertThat(all.isAll()).isTrue();
    assertThat(all.selects(app)).isTrue();
    assertThat(all.selects(other)).isTrue();
    assertThat(all.describe()).isEqualTo("every .NET process");
  }

  @Test
  void pidsAndNamesSelectEitherWayAndNamesMatchAsDashNDoes() {
    ProcessSelection byPid = new ProcessSelection(Set.of(43L), Set.of());
    assertThat(byPid.selects(other)).isTrue();
    assertThat(byPid.selects(app)).isFalse();
    ProcessSelection byName = new ProcessSelection(Set.of(), Set.of("countersapp"));
    assertThat(byName.selects(app)).isTrue();
    assertThat(byName.selects(other)).isFalse();
    ProcessSelection both = new ProcessSelection(Set.of(43L), Set.of("CountersApp"));
    assertThat(both.selects(app)).isTrue();
    assertThat(both.selects(other)).isTrue();
    assertThat(both.describe()).isEqualTo("pid 43, name CountersApp");
  }
}
