package dev.clrscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every command answers --help and --version, and the completion script knows every command. */
class CompletionAndHelpTest {

  private record Run(int exitCode, String out) {}

  private static synchronized Run run(String... args) {
    PrintStream oldOut = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      code = Main.run(args);
    } finally {
      System.setOut(oldOut);
    }
    return new Run(code, out.toString(StandardCharsets.UTF_8));
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
      Run help = run(command, "--help");
      assertThat(help.exitCode()).as(command).isZero();
      assertThat(help.out()).as(command).startsWith("Usage: clrscope " + command);

      Run version = run(command, "--version");
      assertThat(version.exitCode()).as(command).isZero();
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
    Run script = run("generate-completion");

    assertThat(script.exitCode()).isZero();
    assertThat(script.out()).contains("complete -F _complete_clrscope");
    for (String command : publicCommands()) {
      assertThat(script.out()).as(command).contains(command);
    }
    assertThat(script.out()).contains("--process-id", "--diagnostic-port", "--format");
  }
}
