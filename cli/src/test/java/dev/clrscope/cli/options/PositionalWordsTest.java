package dev.clrscope.cli.options;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.cli.CliRun;
import dev.clrscope.cli.ClrscopeCommand;
import dev.clrscope.cli.commands.AttachingCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Only words after {@code --} are a command to launch, for every command that attaches: a stray
 * word ({@code gcstats --duration 2s touch FILE}, {@code dump analyze core1}) is a usage error that
 * names the expected form, and nothing is started.
 */
class PositionalWordsTest {
  @TempDir Path dir;

  @Test
  void aWordWithoutDashesNeverLaunchesAnythingInAnyCommand() {
    Path marker = dir.resolve("launched");
    List<String> commands = attachingCommands();
    assertThat(commands).contains("gcstats", "dump", "trace collect", "exceptions", "dump-heap");
    for (String command : commands) {
      List<String> args = new ArrayList<>(List.of(command.split(" ")));
      // Their required options, so that the words are what is wrong.
      for (picocli.CommandLine.Model.OptionSpec o : spec(command).options()) {
        if (o.required() && o.group() == null) {
          args.addAll(List.of(o.longestName(), "x"));
        }
      }
      if (command.equals("perfmap")) {
        args.add("--disable"); // one of a required group
      }
      args.addAll(List.of("touch", marker.toString()));
      CliRun r = CliRun.of(args.toArray(String[]::new));
      assertThat(r.exit()).as("%s: %s", command, r).isEqualTo(2);
      String form = "clrscope " + command + " [OPTIONS] -- touch " + marker;
      assertThat(r.err().lines().findFirst().orElseThrow())
          .as(command)
          .startsWith("clrscope " + command + ": unexpected words 'touch " + marker + "': ")
          .endsWith(form + (r.err().contains("takes one FILE") ? "" : ")"));
      assertThat(marker).as(command).doesNotExist();
    }
    CliRun dump = CliRun.of("dump", "analyze", "core1");
    assertThat(dump.err().lines().findFirst().orElseThrow())
        .isEqualTo(
            "clrscope dump: unexpected words 'analyze core1': only what follows -- is a command"
                + " to launch (clrscope dump [OPTIONS] -- analyze core1)");
  }

  @Test
  void afterTwoDashesTheSameWordsAreACommandToLaunch() throws Exception {
    Path marker = dir.resolve("launched");
    CliRun r = CliRun.of("info", "--timeout", "2", "--", "touch", marker.toString());
    // touch is no .NET app: it runs, and clrscope says no runtime connected.
    assertThat(r.exit()).as("%s", r).isEqualTo(1);
    assertThat(r.err()).contains("before a .NET runtime connected");
    assertThat(Files.exists(marker)).isTrue();
  }

  @Test
  void aSavedTraceAndATargetTogetherAreRefused() {
    CliRun r = CliRun.of("exceptions", "-p", "1", "x.nettrace");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith(
            "clrscope exceptions: give a saved file (x.nettrace) or a target (-p, -n,"
                + " --diagnostic-port, -- COMMAND), not both");
  }

  private static picocli.CommandLine.Model.CommandSpec spec(String command) {
    CommandLine cl = ClrscopeCommand.fullCommandLine();
    for (String word : command.split(" ")) {
      cl = cl.getSubcommands().get(word);
    }
    return cl.getCommandSpec();
  }

  /** Every command that attaches, as its words ({@code trace collect}). */
  private static List<String> attachingCommands() {
    List<String> out = new ArrayList<>();
    collect(ClrscopeCommand.fullCommandLine(), "", out);
    return out;
  }

  private static void collect(CommandLine cl, String path, List<String> out) {
    for (Map.Entry<String, CommandLine> e : cl.getSubcommands().entrySet()) {
      if (!e.getKey().equals(e.getValue().getCommandName())) {
        continue;
      }
      String name = (path + " " + e.getKey()).strip();
      if (e.getValue().getCommandSpec().userObject() instanceof AttachingCommand) {
        out.add(name);
      }
      collect(e.getValue(), name, out);
    }
  }
}
