package dev.clrscope.e2e;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The .NET runtimes the end-to-end tests run their apps on: the machine's .NET 10 (the apps run as
 * {@code dotnet <App>.dll}) and .NET 8 and 9, each app published self-contained with its runtime
 * from the NuGet feed beside it ({@code <apps dir>/<App>-net8.0/<App>}; src/test/pom.xml publishes
 * them).
 *
 * <p>A test that runs on several of them takes the runtime as a parameter
 * ({@code @EnumSource(Runtime.class)}, or the names of some) and says which commands it runs
 * ({@link RunsCommands}): {@code RuntimeSupportTableTest} draws docs/runtimes.md's table from
 * exactly that.
 */
public enum Runtime {
  NET8("net8.0", "8"),
  NET9("net9.0", "9"),
  NET10("net10.0", "10");

  private final String tfm;
  private final String major;

  Runtime(String tfm, String major) {
    this.tfm = tfm;
    this.major = major;
  }

  /** The target framework moniker the apps name: {@code net8.0}. */
  public String tfm() {
    return tfm;
  }

  /** The major version, as the table heads its column: {@code 8}. */
  public String major() {
    return major;
  }

  /** What the runtime calls itself in clrscope's messages: {@code .NET 8.} (then the patch). */
  public String namePrefix() {
    return ".NET " + major + ".";
  }

  /** Whether the app runs on the machine's shared runtime, under the {@code dotnet} host. */
  public boolean isMachines() {
    return this == NET10;
  }

  /** The directory an app for this runtime is in. */
  public Path appDir(String app) {
    return isMachines() ? DotnetApps.dir().resolve(app) : DotnetApps.dir().resolve(app + "-" + tfm);
  }

  /**
   * The runtime's own directory: the machine's shared framework, or the self-contained app's
   * directory (libcoreclr.so, libclrgc.so and the DAC, libmscordaccore.so, are there).
   */
  public Path runtimeDir(String app) {
    if (!isMachines()) {
      return appDir(app);
    }
    Path shared = DotnetApps.dotnetRealPath().getParent().resolve("shared/Microsoft.NETCore.App");
    try (java.util.stream.Stream<Path> versions = java.nio.file.Files.list(shared)) {
      return versions
          .filter(d -> d.getFileName().toString().startsWith(major + "."))
          .max(java.util.Comparator.comparing(d -> d.getFileName().toString()))
          .orElseThrow(() -> new AssertionError("no .NET " + major + " runtime in " + shared));
    } catch (java.io.IOException e) {
      throw new AssertionError("cannot list " + shared, e);
    }
  }

  /** The command line that runs {@code app} on this runtime with {@code args}. */
  public List<String> command(String app, List<String> args) {
    if (isMachines()) {
      return DotnetApps.command(app, args);
    }
    Path apphost = appDir(app).resolve(app);
    if (!java.nio.file.Files.isExecutable(apphost)) {
      throw new AssertionError(
          "The .NET "
              + major
              + " build of "
              + app
              + " is not published: "
              + apphost
              + " does not exist. Run `mvn package` (or `mvn -pl src/test package`): the"
              + " dotnet-publish-"
              + tfm
              + " execution in src/test/pom.xml publishes it self-contained.");
    }
    List<String> command = new ArrayList<>();
    command.add(apphost.toString());
    command.addAll(args);
    return command;
  }
}
