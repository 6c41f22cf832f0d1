package dev.clrscope.e2e;

import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.DacSession;
import dev.clrscope.dac.TargetException;

/**
 * A JVM of its own that pauses a process through the analyze model and then holds it, so a test can
 * kill or signal this JVM while the target is paused: {@code LiveHolder PID sleep|walk}. Prints
 * {@code attached} once the target is paused; a refusal is its message on stderr and exit code 1.
 */
public final class LiveHolder {
  private LiveHolder() {}

  public static void main(String[] args) throws InterruptedException {
    DacSession p;
    try {
      p =
          DacSession.attach(
              Integer.parseInt(args[0]), DacOptions.defaults().withSymbolServer(null));
    } catch (TargetException e) {
      System.err.println(e.getMessage());
      System.exit(1);
      return;
    }
    System.out.println("attached");
    System.out.flush();
    if (args[1].equals("walk")) {
      // Long work on the owner thread, that a shutdown must interrupt to let the target go.
      while (true) {
        try {
          p.heap().walk(o -> {});
        } catch (TargetException e) {
          System.out.println("walk stopped: " + e.getMessage());
          return;
        }
      }
    }
    Thread.sleep(Long.MAX_VALUE);
  }
}
