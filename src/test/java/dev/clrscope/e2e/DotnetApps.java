package dev.clrscope.e2e;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The .NET apps built from {@code src/test/dotnet} (by the {@code dotnet-build} execution at
 * Maven's {@code package} phase), each at {@code <apps dir>/<App>/<App>.dll}, and the {@code
 * dotnet} host that runs them.
 *
 * <p>A missing app or a missing {@code dotnet} fails the test rather than skipping it: a suite that
 * silently tests nothing is worse than a red one.
 */
public final class DotnetApps {
  /** The controllable target, see {@code src/test/dotnet/TargetApp/README.md}. */
  public static final String TARGET_APP = "TargetApp";

  /** The README quick-start sample. */
  public static final String SAMPLE_APP = "SampleApp";

  private DotnetApps() {}

  /**
   * Where the apps are: the {@code dotnet.apps.dir} system property (set by failsafe), else {@code
   * <clrscope.root>/src/test/target/apps}.
   */
  public static Path dir() {
    String property = System.getProperty("dotnet.apps.dir");
    if (property != null && !property.isBlank()) {
      return Path.of(property).toAbsolutePath().normalize();
    }
    return Clrscope.root().resolve(Path.of("src", "test", "target", "apps"));
  }

  /** The app's entry dll; fails if it has not been built. */
  public static Path dll(String app) {
    Path dll = dir().resolve(app).resolve(app + ".dll");
    if (!Files.isRegularFile(dll)) {
      throw new AssertionError(
          "The .NET app "
              + app
              + " is not built: "
              + dll
              + " does not exist. Run `mvn package` (or `mvn -pl src/test package`) first; the"
              + " dotnet-build execution in src/test/pom.xml builds src/test/dotnet/apps.slnx.");
    }
    return dll;
  }

  /** The {@code dotnet} executable found on PATH; fails if there is none. */
  public static Path dotnet() {
    boolean windows = System.getProperty("os.name").startsWith("Windows");
    String name = windows ? "dotnet.exe" : "dotnet";
    String path = System.getenv("PATH");
    if (path != null) {
      for (String dir : path.split(File.pathSeparator, -1)) {
        if (dir.isEmpty()) {
          continue;
        }
        Path candidate = Path.of(dir, name);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return candidate.toAbsolutePath();
        }
      }
    }
    throw new AssertionError(
        "`dotnet` is not on PATH ("
            + path
            + "). The end-to-end tests need the .NET 10 SDK or runtime to run their target apps.");
  }

  /** {@link #dotnet()} with symbolic links resolved, as the runtime reports its host path. */
  public static Path dotnetRealPath() {
    try {
      return dotnet().toRealPath();
    } catch (IOException e) {
      throw new AssertionError("Cannot resolve " + dotnet(), e);
    }
  }

  /** The command line that runs the app: {@code dotnet <dll> args...}. */
  public static List<String> command(String app, String... args) {
    return command(app, Arrays.asList(args));
  }

  /** The command line that runs the app: {@code dotnet <dll> args...}. */
  public static List<String> command(String app, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(dotnet().toString());
    command.add(dll(app).toString());
    command.addAll(args);
    return command;
  }
}
