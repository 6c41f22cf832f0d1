package dev.clrscope.e2e;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real browser for the HTML reports: Debian's {@code chromium}, headless, in a profile of its
 * own, with no network of its own doing (no component updates, sync or background requests). {@code
 * .ci/run} installs it; a machine without it fails the test that needs it, never skips it.
 */
final class HeadlessChromium {
  private HeadlessChromium() {}

  /**
   * What the browser made of a page.
   *
   * @param dom the document after its scripts ran ({@code --dump-dom})
   * @param log the browser's log on stderr: console messages and uncaught script errors among it
   */
  record Rendered(String dom, String log) {
    /** The console's lines: {@code ...:CONSOLE(12)] "message", source: file:///...}. */
    List<String> console() {
      return log.lines().filter(l -> l.contains(":CONSOLE")).toList();
    }
  }

  /** The browser's executable on PATH; fails when there is none. */
  static Path executable() {
    for (String name : List.of("chromium", "chromium-browser")) {
      for (String dir : System.getenv("PATH").split(File.pathSeparator)) {
        Path p = Path.of(dir, name);
        if (Files.isExecutable(p)) {
          return p;
        }
      }
    }
    throw new AssertionError(
        "no chromium on PATH: the HTML report's test renders it in a real browser (`apt-get"
            + " install chromium`; .ci/run does it)");
  }

  /** Loads {@code page} and returns its document after its scripts ran, and the browser's log. */
  static Rendered render(Path page, Path workDir) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory(workDir, "chromium-profile");
    List<String> command = new ArrayList<>();
    command.add(executable().toString());
    command.addAll(
        List.of(
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--user-data-dir=" + profile,
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
            page.toUri().toString()));
    Path out = workDir.resolve("dom.html");
    Path err = workDir.resolve("chromium.log");
    Process p =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("chromium did not end within 2 minutes: " + Files.readString(err));
    }
    String log = Files.readString(err, StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new AssertionError("chromium exited with " + p.exitValue() + ": " + log);
    }
    return new Rendered(Files.readString(out, StandardCharsets.UTF_8), log);
  }
}
