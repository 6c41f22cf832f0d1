package dev.clrscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every option of every command, read from the command model (so options added later are swept
 * too), with values a user can type: empty, negative, zero, huge, non-numeric, out of range. None
 * may end in an internal error (exit 70) or hang; each ends in 0, 1 or 2 with a message.
 *
 * <p>Commands run in-process with no target (attaching commands stop at "choose a target" or at
 * their option checks), and with the golden trace as their FILE. Path-like options get paths inside
 * a private directory, so the sweep writes nowhere else.
 */
class OptionSweepTest {
  @TempDir static Path dir;
  private static ExecutorService runner;

  private static final List<String> VALUES =
      List.of(
          "",
          "-1",
          "0",
          "99999999999999999999999999",
          "abc",
          "1e309",
          "9999999999999999999999d",
          "99999999999999:0:0:0",
          "x".repeat(5000),
          ",",
          ":");

  @BeforeAll
  static void start() {
    runner = Executors.newSingleThreadExecutor();
  }

  @AfterAll
  static void stop() {
    runner.shutdownNow();
  }

  static Stream<Arguments> optionsAndValues() {
    List<Arguments> cases = new ArrayList<>();
    collect(ClrscopeCommand.fullCommandLine(), List.of(), cases);
    return cases.stream();
  }

  private static void collect(CommandLine cl, List<String> path, List<Arguments> cases) {
    if (!path.isEmpty() && cl.getSubcommands().isEmpty()) {
      for (OptionSpec o : cl.getCommandSpec().options()) {
        if (o.arity().max() == 0 || o.usageHelp() || o.versionHelp()) {
          continue;
        }
        for (String value : pathLike(o) ? pathValues() : VALUES) {
          cases.add(Arguments.of(String.join(" ", path), o.longestName(), value));
        }
      }
    }
    cl.getSubcommands()
        .forEach(
            (name, sub) -> {
              if (!name.equals("generate-completion") && !path.contains(name)) {
                List<String> p = new ArrayList<>(path);
                p.add(name);
                collect(sub, p, cases);
              }
            });
  }

  private static boolean pathLike(OptionSpec o) {
    String label = o.paramLabel().toUpperCase(Locale.ROOT);
    return label.contains("FILE")
        || label.contains("OUT")
        || label.contains("PATH")
        || label.equals("DIR");
  }

  private static List<String> pathValues() {
    return List.of(
        "", dir.toString(), dir.resolve("no/such/dir/x").toString(), dir.resolve("x").toString());
  }

  /** The FILE a command needs as its first parameter, if it takes one. */
  private static List<String> parameters(String command) {
    return switch (command) {
      case "trace convert", "trace stats", "trace events", "trace report topN", "alloc" ->
          List.of(golden().toString());
      default -> List.of();
    };
  }

  @ParameterizedTest(name = "{0} {1} ''{2}''")
  @MethodSource("optionsAndValues")
  void noValueEndsInAnInternalErrorOrAHang(String command, String option, String value)
      throws Exception {
    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    args.addAll(parameters(command));
    args.add(option + "=" + value);
    if (command.equals("trace convert") && !option.equals("--output")) {
      args.add("--output=" + dir.resolve("converted.out"));
    }
    // serve runs until stopped and listens on a port: a second, on any free port.
    if (command.equals("serve") && !option.equals("--duration")) {
      args.add("--duration=1s");
    }
    if (command.equals("serve") && !option.equals("--listen")) {
      args.add("--listen=127.0.0.1:0");
    }
    // Nor may it open a metrics session in another engineer's process: it watches none.
    if (command.equals("serve") && !option.equals("--process-id") && !option.equals("--name")) {
      args.add("--name=clrscope-option-sweep-matches-nothing");
    }
    Future<CliRun> run = runner.submit(() -> CliRun.of(args.toArray(String[]::new)));
    CliRun r = run.get(60, TimeUnit.SECONDS);
    assertThat(r.exit()).as("%s\n%s", args, r.err()).isIn(0, 1, 2);
    if (r.exit() != 0) {
      assertThat(r.err()).as("%s", args).startsWith("clrscope").doesNotContain("\tat ");
    }
  }

  private static Path golden() {
    for (Path d = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        d != null;
        d = d.getParent()) {
      Path candidate = d.resolve("nettrace/src/test/resources/golden/golden.nettrace");
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError("golden.nettrace not found above " + System.getProperty("user.dir"));
  }
}
