package dev.clrscope.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The {@code --option:value} form of System.CommandLine, which dotnet-trace and dotnet-counters
 * users paste ({@code --providers:Microsoft-Windows-DotNETRuntime:0x1:5}, {@code
 * --resume-runtime:false}, {@code -p:1234}): rewritten to picocli's {@code --option=value} before
 * parsing, but only for a name that is an option of the command being parsed, and never after
 * {@code --} (the command line of a launched app is passed on untouched).
 */
public final class ColonValues {
  private ColonValues() {}

  /** {@code args} with every {@code --name:value} of a known option as {@code --name=value}. */
  public static String[] rewrite(CommandLine root, String[] args) {
    String[] out = args.clone();
    CommandSpec spec = root.getCommandSpec();
    for (int i = 0; i < out.length; i++) {
      String a = out[i];
      if (a.equals("--")) {
        break;
      }
      CommandLine sub = spec.subcommands().get(a);
      if (sub != null) {
        spec = sub.getCommandSpec();
        continue;
      }
      if (!a.startsWith("-")) {
        continue;
      }
      int colon = a.indexOf(':');
      int equals = a.indexOf('=');
      if (colon < 0 || (equals >= 0 && equals < colon)) {
        continue;
      }
      String name = a.substring(0, colon);
      if (spec.findOption(name) != null) {
        out[i] = name + "=" + a.substring(colon + 1);
      }
    }
    return out;
  }
}
