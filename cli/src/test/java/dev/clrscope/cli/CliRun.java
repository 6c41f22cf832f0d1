package dev.clrscope.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * One in-process run of clrscope: its exit code, stdout and stderr.
 *
 * @param exit the exit code
 * @param out what it printed on stdout
 * @param err what it printed on stderr
 */
public record CliRun(int exit, String out, String err) {
  /** Runs clrscope with {@code args}, capturing System.out and System.err. */
  public static synchronized CliRun of(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      exit = Main.run(args);
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
    return new CliRun(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
