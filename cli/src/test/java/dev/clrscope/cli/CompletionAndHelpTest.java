package dev.clrscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Every command answers --help and --version, and the completion script knows every command. */
class CompletionAndHelpTest {

  private static CliRun run(String... args) {
    return CliRun.of(args);
  }

  private static List<String> publicCommands() {
    // Each command under its name: an alias (gcdump) prints the command's own name.
    return ClrscopeCommand.fullCommandLine().getSubcommands().entrySet().stream()
        .filter(e -> !e.getValue().getCommandSpec().usageMessage().hidden())
        .filter(e -> e.getKey().equals(e.getValue().getCommandName()))
        .map(java.util.Map.Entry::getKey)
        .toList();
  }

  @Test
  void everyCommandHasHelpAndVersion() {
    assertThat(publicCommands()).contains("ps", "info", "env", "dump", "perfmap");
    for (String command : publicCommands()) {
      CliRun help = run(command, "--help");
      assertThat(help.exit()).as(command).isZero();
      assertThat(help.out()).as(command).startsWith("Usage: clrscope " + command);

      CliRun version = run(command, "--version");
      assertThat(version.exit()).as(command).isZero();
      // picocli's own completion command reports picocli's version.
      String expected =
          command.equals("generate-completion")
              ? "generate-completion "
              : "clrscope " + ClrscopeVersion.version();
      assertThat(version.out()).as(command).startsWith(expected);
    }
  }

  @Test
  void theCompletionScriptCompletesEveryCommand() {
    CliRun script = run("generate-completion");

    assertThat(script.exit()).isZero();
    assertThat(script.out()).contains("complete -F _complete_clrscope");
    for (String command : publicCommands()) {
      assertThat(script.out()).as(command).contains(command);
    }
    assertThat(script.out()).contains("--process-id", "--diagnostic-port", "--format");
  }
}
