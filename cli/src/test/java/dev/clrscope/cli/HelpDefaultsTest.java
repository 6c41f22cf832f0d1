package dev.clrscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.cli.options.DurationParser;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What every option's help says its default is ({@code (default: 10 s)}) against the value the
 * option has when the command line does not give it, read from picocli's model after parsing the
 * command alone: a help text and a default cannot drift apart again. A default the help spells in
 * words ({@code until stopped}, {@code beside FILE}) must leave the option unset, so that the
 * command computes it; a literal one must be the value.
 */
class HelpDefaultsTest {
  /** {@code (default: X)}, {@code (default X)}, {@code ; default X)}: X up to ), ; or a comma. */
  private static final Pattern DEFAULT = Pattern.compile("(?:\\(|; )default:? ([^);,]+)[);,]");

  /** A literal: a number with an optional unit, a duration, true or false. */
  private static final Pattern LITERAL =
      Pattern.compile("-?[0-9][0-9.]*( ?(s|ms|MB|%))?|[0-9][0-9a-z.:]*|true|false");

  @Test
  void everyOptionsHelpDefaultIsItsValueWhenNotGiven() {
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (List<String> path : commandPaths()) {
      CommandLine root = ClrscopeCommand.fullCommandLine();
      collectErrors(root);
      CommandLine.ParseResult parsed = root.parseArgs(path.toArray(String[]::new));
      while (parsed.hasSubcommand()) {
        parsed = parsed.subcommand();
      }
      for (OptionSpec o : parsed.commandSpec().options()) {
        if (o.usageHelp() || o.versionHelp()) {
          continue;
        }
        Matcher m = DEFAULT.matcher(String.join(" ", o.description()));
        if (!m.find()) {
          continue;
        }
        checked++;
        String said = m.group(1).strip();
        String problem = mismatch(said, o.getValue());
        if (problem != null) {
          problems.add(String.join(" ", path) + " " + o.longestName() + ": " + problem);
        }
      }
    }
    assertThat(problems).isEmpty();
    assertThat(checked).as("options whose help gives a default").isGreaterThan(40);
  }

  /** The defaults this issue found wrong, as the help now says them. */
  @Test
  void theDefaultsThatHadDriftedAreTheOnesTheCommandsUse() {
    assertThat(helpOf("startup", "--duration")).contains("(default: 10s)");
    assertThat(helpOf("serve", "--refresh-interval")).contains("(default: 5 s)");
    assertThat(helpOf("counters monitor", "--refresh-interval")).contains("(default: 1 s)");
    assertThat(helpOf("dump-heap", "--duration")).contains("(default: 60s;");
    assertThat(helpOf("dump-heap", "--buffersize")).contains("(default: 1024,");
    assertThat(helpOf("trace collect", "--buffersize")).contains("(default: 256,");
    assertThat(helpOf("gcstats", "--duration")).contains("(default: until stopped)");
    for (List<String> path : commandPaths()) {
      String command = String.join(" ", path);
      String timeout = helpOf(command, "--timeout");
      if (timeout != null) {
        assertThat(timeout).as(command).doesNotContain("dump-heap");
      }
    }
    assertThat(valueOf("startup", "--duration")).isEqualTo(Duration.ofSeconds(10));
    assertThat(valueOf("serve", "--refresh-interval")).isEqualTo(5.0);
    assertThat(valueOf("dump-heap collect", "--buffersize")).isEqualTo(1024);
  }

  /** Why the help's {@code said} does not describe {@code value}, or null if it does. */
  private static String mismatch(String said, Object value) {
    boolean literal = LITERAL.matcher(said).matches();
    if (value == null) {
      return literal ? "the help says " + said + " but the option has no default" : null;
    }
    if (value instanceof Boolean b && !literal) {
      // A flag's default in words ("exclusive", "its output is discarded") is its off state.
      return b ? "the help says " + said + " but the flag is on" : null;
    }
    if (said.equals("none") && value instanceof Duration d) {
      return d.isZero() ? null : "the help says none, the value is " + d;
    }
    String unitless = said.replaceAll(" ?(s|ms|MB|%)$", "");
    if (value instanceof Duration d) {
      try {
        Duration s = new DurationParser().convert(said.replace(" ", ""));
        return s.equals(d) ? null : "the help says " + said + ", the value is " + d;
      } catch (Exception e) {
        return "the help says " + said + ", the value is " + d;
      }
    }
    if (value instanceof Number n) {
      try {
        return Double.parseDouble(unitless) == n.doubleValue()
            ? null
            : "the help says " + said + ", the value is " + n;
      } catch (NumberFormatException e) {
        return "the help says " + said + ", the value is " + n;
      }
    }
    String v = value instanceof Enum<?> e ? e.name() : String.valueOf(value);
    return said.toLowerCase(Locale.ROOT).startsWith(v.toLowerCase(Locale.ROOT))
        ? null
        : "the help says " + said + ", the value is " + v;
  }

  /** The help lines of {@code option} of {@code command}, or null when it has none. */
  private static String helpOf(String command, String option) {
    CommandLine cl = ClrscopeCommand.fullCommandLine();
    for (String word : command.split(" ")) {
      cl = cl.getSubcommands().get(word);
    }
    OptionSpec o = cl.getCommandSpec().findOption(option);
    return o == null ? null : String.join(" ", o.description());
  }

  /** The value {@code option} of {@code command} has when the command line does not give it. */
  private static Object valueOf(String command, String option) {
    CommandLine.ParseResult parsed =
        ClrscopeCommand.fullCommandLine().parseArgs(command.split(" "));
    while (parsed.hasSubcommand()) {
      parsed = parsed.subcommand();
    }
    return parsed.commandSpec().findOption(option).getValue();
  }

  /** Parse without stopping at a missing required option: only the defaults matter here. */
  private static void collectErrors(CommandLine cl) {
    cl.getCommandSpec().parser().collectErrors(true);
    cl.getSubcommands().values().forEach(HelpDefaultsTest::collectErrors);
  }

  /** Every command's words ({@code [dump-heap, roots]}), each once (aliases left out). */
  private static List<List<String>> commandPaths() {
    List<List<String>> paths = new ArrayList<>();
    collect(ClrscopeCommand.fullCommandLine(), List.of(), paths, new IdentityHashMap<>());
    return paths;
  }

  private static void collect(
      CommandLine cl, List<String> path, List<List<String>> paths, Map<CommandLine, Boolean> seen) {
    for (Map.Entry<String, CommandLine> e : cl.getSubcommands().entrySet()) {
      CommandLine sub = e.getValue();
      if (seen.put(sub, true) != null || !e.getKey().equals(sub.getCommandName())) {
        continue;
      }
      List<String> p = new ArrayList<>(path);
      p.add(e.getKey());
      paths.add(p);
      collect(sub, p, paths, seen);
    }
  }
}
