package dev.clrscope.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/**
 * The version Maven wrote at build time: into the jar's manifest, and into {@code
 * version.properties} for runs from the class directories (tests).
 */
public final class ClrscopeVersion implements CommandLine.IVersionProvider {
  /** The version string, such as {@code 0.1.0-SNAPSHOT}. */
  public static String version() {
    // The JVM read the manifest to find the main class; a resource would open the jar a second
    // time and index its 4,000 entries, a quarter of what `--version` takes.
    String fromManifest = ClrscopeVersion.class.getPackage().getImplementationVersion();
    if (fromManifest != null) {
      return fromManifest;
    }
    Properties p = new Properties();
    try (InputStream in = ClrscopeVersion.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // Fall through to "unknown".
    }
    return p.getProperty("version", "unknown");
  }

  @Override
  public String[] getVersion() {
    return new String[] {
      "clrscope " + version(),
      "Java "
          + System.getProperty("java.version")
          + " ("
          + System.getProperty("java.vm.name")
          + ")",
      System.getProperty("os.name") + " " + System.getProperty("os.arch")
    };
  }
}
