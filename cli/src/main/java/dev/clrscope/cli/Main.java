package dev.clrscope.cli;

import dev.clrscope.ipc.DiagnosticsException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The entry point. It maps failures onto three tiers: a usage error (the message, a short usage and
 * exit 2); a target or environment error (one line, {@code clrscope CMD: message}, exit 1);
 * anything else is a bug in clrscope (the stack trace, exit 70).
 */
public final class Main {
  private Main() {}

  /** Runs clrscope and exits with its exit code. */
  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs clrscope and returns its exit code. */
  public static int run(String... args) {
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
      // Scripts call this to check the tool is there: answer without building any command model.
      for (String line : new ClrscopeVersion().getVersion()) {
        System.out.println(line);
      }
      System.out.flush();
      return ExitCode.OK;
    }
    CommandLine cl = ClrscopeCommand.commandLineFor(args);
    cl.setParameterExceptionHandler(Main::usageError);
    cl.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          if (e instanceof ParameterException pe) {
            return usageError(pe, args);
          }
          String command = commandLine.getCommandSpec().qualifiedName();
          if (e instanceof DiagnosticsException || e instanceof CommandFailure) {
            commandLine.getErr().println(command + ": " + e.getMessage());
            commandLine.getErr().flush();
            return ExitCode.TARGET_ERROR;
          }
          commandLine.getErr().println(command + ": internal error, please report it:");
          e.printStackTrace(commandLine.getErr());
          commandLine.getErr().flush();
          return ExitCode.INTERNAL_ERROR;
        });
    return cl.execute(args);
  }

  private static int usageError(ParameterException e, String[] args) {
    CommandLine cl = e.getCommandLine();
    PrintWriter err = cl.getErr();
    String command = cl.getCommandSpec().qualifiedName();
    err.println(command + ": " + e.getMessage());
    err.print(cl.getHelp().synopsis(0));
    err.println("Try '" + command + " --help' for more information.");
    err.flush();
    return ExitCode.USAGE;
  }
}
