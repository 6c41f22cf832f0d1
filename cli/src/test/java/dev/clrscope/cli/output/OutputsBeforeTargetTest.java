package dev.clrscope.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.cli.CliRun;
import dev.clrscope.cli.ClrscopeCommand;
import dev.clrscope.cli.commands.AttachingCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every command that writes a file checks where before it touches its target: {@code dump-heap -o
 * missingdir/x} used to force the full GC and walk the heap, then fail. The target here is this
 * JVM, no .NET process: a command that checked its output only after attaching would say so
 * instead.
 */
class OutputsBeforeTargetTest {
  /** Each output option of an attaching command, with the file name it is given. */
  private static final Map<String, String> OUTPUTS =
      Map.of(
          "dump-heap -o", "x.gcdump",
          "dump-heap collect -o", "x.gcdump",
          "dump-heap dominators --flame", "x.folded",
          "alloc --flame", "x.folded",
          "gcstats --chart", "x.svg",
          "trace collect -o", "x.nettrace",
          "counters collect -o", "x.csv",
          "dump -o", "core");

  @Test
  void aMissingDirectoryIsSaidBeforeTheTargetIsTouched(@TempDir Path dir) {
    String pid = Long.toString(ProcessHandle.current().pid());
    Path missing = dir.resolve("missing");
    for (Map.Entry<String, String> e : OUTPUTS.entrySet()) {
      List<String> args = new ArrayList<>(List.of(e.getKey().split(" ")));
      args.add(missing.resolve(e.getValue()).toString());
      args.addAll(List.of("-p", pid));
      CliRun r = CliRun.of(args.toArray(String[]::new));
      String option = e.getKey().substring(e.getKey().lastIndexOf(' ') + 1);
      assertThat(r.exit()).as("%s: %s", e.getKey(), r).isEqualTo(1);
      assertThat(r.err().strip())
          .as(e.getKey())
          .endsWith(
              ": the directory "
                  + missing
                  + " does not exist: create it or choose another "
                  + option);
    }
  }

  /** A new output option of an attaching command must join the table above. */
  @Test
  void theTableHoldsEveryOutputOptionOfTheAttachingCommands() {
    TreeSet<String> found = new TreeSet<>();
    collect(ClrscopeCommand.fullCommandLine(), "", found);
    assertThat(found).isEqualTo(new TreeSet<>(OUTPUTS.keySet()));
  }

  private static void collect(CommandLine cl, String path, TreeSet<String> found) {
    for (Map.Entry<String, CommandLine> e : cl.getSubcommands().entrySet()) {
      CommandLine sub = e.getValue();
      if (!e.getKey().equals(sub.getCommandName())) {
        continue;
      }
      String name = (path + " " + e.getKey()).strip();
      if (sub.getCommandSpec().userObject() instanceof AttachingCommand) {
        for (OptionSpec o : sub.getCommandSpec().options()) {
          boolean output =
              List.of("-o", "--output", "--flame", "--chart").contains(o.longestName())
                  || List.of(o.names()).contains("-o");
          if (output && !o.longestName().equals("--log-file")) {
            found.add(name + " " + o.shortestName());
          }
        }
      }
      collect(sub, name, found);
    }
  }
}
