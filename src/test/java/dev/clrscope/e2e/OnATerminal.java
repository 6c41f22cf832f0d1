package dev.clrscope.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real CLI with a pseudo-terminal of a given width for its stdin and stdout, through
 * script(1), as a person at a narrow terminal runs it: what a table keeps when it must fit.
 */
final class OnATerminal {
  private OnATerminal() {}

  /**
   * The lines clrscope wrote (stdout and stderr share the terminal), without the terminal's
   * carriage returns; fails unless it exited 0 within {@code timeout}.
   */
  static List<String> run(int columns, Duration timeout, String... args)
      throws IOException, InterruptedException {
    StringBuilder command = new StringBuilder("COLUMNS=" + columns + " LINES=40 ");
    command.append(quote(Clrscope.launcher().toString()));
    for (String a : args) {
      command.append(' ').append(quote(a));
    }
    Process script =
        new ProcessBuilder("script", "-qfec", command.toString(), "/dev/null")
            .redirectErrorStream(true)
            .start();
    script.getOutputStream().close();
    byte[] out = script.getInputStream().readAllBytes();
    if (!script.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      script.destroyForcibly();
      throw new AssertionError("clrscope did not end: " + new String(out, StandardCharsets.UTF_8));
    }
    String text = new String(out, StandardCharsets.UTF_8).replace("\r", "");
    if (script.exitValue() != 0) {
      throw new AssertionError("exit " + script.exitValue() + ": " + text);
    }
    return new ArrayList<>(text.lines().toList());
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }
}
