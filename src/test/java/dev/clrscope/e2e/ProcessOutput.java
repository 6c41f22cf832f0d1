package dev.clrscope.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Collects a process's standard output on a thread as it comes, so its pipe never fills and a test
 * can wait for what it expects to appear.
 */
final class ProcessOutput {
  // Appended by the reader thread and read by the test thread: the synchronisation is needed.
  @SuppressWarnings("JdkObsolete")
  private final StringBuffer text = new StringBuffer();

  ProcessOutput(Process p) {
    Thread t =
        new Thread(
            () -> {
              try {
                byte[] buf = new byte[8192];
                int n;
                while ((n = p.getInputStream().read(buf)) >= 0) {
                  text.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                }
              } catch (IOException e) {
                // The process ended.
              }
            },
            "process-output");
    t.setDaemon(true);
    t.start();
  }

  /** Everything read so far. */
  String text() {
    return text.toString();
  }

  @Override
  public String toString() {
    return text();
  }
}
