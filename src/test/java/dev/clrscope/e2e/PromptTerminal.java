package dev.clrscope.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code clrscope analyze ...} in a pseudo-terminal ({@code script}), as a person at analyze's
 * prompt runs it: the keys typed, what the screen showed so far. Closing it ends the terminal.
 */
final class PromptTerminal implements AutoCloseable {
  /** What each prompt writes as it starts reading a line: bracketed paste turned on. */
  static final String READING = "\u001b[?2004h";

  private final Process terminal;
  private final OutputStream keys;
  private final ByteArrayOutputStream screen = new ByteArrayOutputStream();
  private final Thread copier;

  private PromptTerminal(Process terminal) {
    this.terminal = terminal;
    this.keys = terminal.getOutputStream();
    this.copier = copy(terminal.getInputStream());
  }

  /**
   * Starts {@code clrscope ARGS} (words a shell splits) in a 200-column terminal, its history under
   * {@code cacheHome}.
   */
  static PromptTerminal start(Path cacheHome, String args) throws IOException {
    ProcessBuilder b =
        new ProcessBuilder("script", "-qfec", Clrscope.launcher() + " " + args, "/dev/null");
    b.environment().put("XDG_CACHE_HOME", cacheHome.toString());
    b.environment().put("COLUMNS", "200");
    b.environment().put("TERM", "xterm");
    b.redirectErrorStream(true);
    return new PromptTerminal(b.start());
  }

  /** The terminal ({@code script}). */
  Process process() {
    return terminal;
  }

  /** Everything the screen showed so far. */
  String screen() {
    synchronized (screen) {
      return screen.toString(StandardCharsets.UTF_8);
    }
  }

  /** How many times {@code text} is on the screen. */
  int count(String text) {
    Matcher m = Pattern.compile(Pattern.quote(text)).matcher(screen());
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  /** Types {@code text} (control characters too: {@code \u0003} is Ctrl+C). */
  void type(String text) throws IOException {
    keys.write(text.getBytes(StandardCharsets.UTF_8));
    keys.flush();
  }

  /** Waits for the terminal to end; its exit code, or -1 if it has not within the time. */
  int awaitExit(java.time.Duration within) throws InterruptedException {
    return terminal.waitFor(within.toSeconds(), TimeUnit.SECONDS) ? terminal.exitValue() : -1;
  }

  @Override
  public void close() throws InterruptedException {
    try {
      keys.close();
    } catch (IOException e) {
      // The terminal is gone already.
    }
    terminal.destroyForcibly();
    copier.join(10_000);
  }

  private Thread copy(InputStream in) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[8192];
              try {
                for (int n; (n = in.read(buf)) > 0; ) {
                  synchronized (screen) {
                    screen.write(buf, 0, n);
                  }
                }
              } catch (IOException e) {
                // The terminal closed.
              }
            },
            "prompt-screen");
    t.setDaemon(true);
    t.start();
    return t;
  }
}
