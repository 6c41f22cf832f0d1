package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The .NET 8.0.31 runtime pack for linux-x64 (Microsoft.NETCore.App.Runtime.linux-x64 from the
 * NuGet feed): its DAC is a real DAC of another runtime version, for the tests that give it for a
 * .NET 10 target. Restored once into {@code src/test/target/net8-runtime-pack} by a throwaway
 * project with a {@code PackageDownload} item, outside {@code src/test/dotnet} (whose apps restore
 * nothing).
 */
final class Net8RuntimePack {
  static final String VERSION = "8.0.31";
  private static final String PACKAGE = "Microsoft.NETCore.App.Runtime.linux-x64";

  private Net8RuntimePack() {}

  /** The pack's libmscordaccore.so, restored when missing; fails when it cannot be. */
  static synchronized Path dac() throws IOException, InterruptedException {
    Path dir = Clrscope.root().resolve("src/test/target/net8-runtime-pack");
    Path packages = dir.resolve("packages");
    Path dac =
        packages.resolve(
            PACKAGE.toLowerCase(java.util.Locale.ROOT)
                + "/"
                + VERSION
                + "/runtimes/linux-x64/native/libmscordaccore.so");
    if (Files.isRegularFile(dac)) {
      return dac;
    }
    Files.createDirectories(dir);
    Files.writeString(
        dir.resolve("RuntimePack.csproj"),
        "<Project Sdk=\"Microsoft.NET.Sdk\">\n"
            + "  <PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>\n"
            + "  <ItemGroup>\n"
            + "    <PackageDownload Include=\""
            + PACKAGE
            + "\" Version=\"["
            + VERSION
            + "]\" />\n"
            + "  </ItemGroup>\n"
            + "</Project>\n",
        StandardCharsets.UTF_8);
    ProcessBuilder pb =
        new ProcessBuilder(
                DotnetApps.dotnet().toString(),
                "restore",
                "RuntimePack.csproj",
                "--nologo",
                "-v",
                "quiet",
                "--disable-build-servers")
            .directory(dir.toFile())
            .redirectErrorStream(true);
    pb.environment().put("NUGET_PACKAGES", packages.toString());
    pb.environment().put("DOTNET_CLI_TELEMETRY_OPTOUT", "1");
    pb.environment().put("DOTNET_NOLOGO", "1");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(10, TimeUnit.MINUTES))
        .as("dotnet restore of the 8.0 runtime pack")
        .isTrue();
    assertThat(p.exitValue())
        .as("dotnet restore of the %s %s pack: %s", PACKAGE, VERSION, out)
        .isZero();
    assertThat(dac).as("the 8.0 runtime pack's DAC").isRegularFile();
    return dac;
  }
}
