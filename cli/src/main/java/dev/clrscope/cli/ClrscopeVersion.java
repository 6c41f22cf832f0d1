package dev.clrscope.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** Reads the version Maven wrote into {@code version.properties} at build time. */
public final class ClrscopeVersion implements CommandLine.IVersionProvider {
  /** The version string, such as {@code 0.1.0-SNAPSHOT}. */
  public static String version() {
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
