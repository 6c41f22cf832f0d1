package dev.clrscope.cli.options;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code --type REGEX}, as the heap reports and the exceptions monitor take it: whether a type name
 * contains a match. Java's regular expressions backtrack, so an expression such as {@code
 * ^(([a-zA-Z.]+)*)*Z$} can take longer than the universe on one name; each match is given {@link
 * #LIMIT}, and one that runs over is a usage error that says why, never a command that never ends.
 */
public final class TypeRegex implements Predicate<String> {
  /** How long one type name may take to match; a sane expression takes microseconds. */
  public static final Duration LIMIT = Duration.ofSeconds(1);

  private final CommandSpec spec;
  private final String regex;
  private final Pattern pattern;

  private TypeRegex(CommandSpec spec, String regex, Pattern pattern) {
    this.spec = spec;
    this.regex = regex;
    this.pattern = pattern;
  }

  /**
   * A regular expression that matches {@code name} itself: its metacharacters escaped ({@code
   * System.Byte\\[\\]}), for a command line a note suggests.
   */
  public static String literal(String name) {
    StringBuilder sb = new StringBuilder(name.length() + 8);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if ("\\^$.|?*+()[]{}".indexOf(c) >= 0) {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.toString();
  }

  /** The regular expression, or a usage error that says what is wrong with it. */
  public static TypeRegex compile(CommandSpec spec, String regex) {
    try {
      return new TypeRegex(spec, regex, Pattern.compile(regex));
    } catch (PatternSyntaxException e) {
      throw new ParameterException(
          spec.commandLine(), "--type is not a regular expression: " + e.getDescription());
    }
  }

  /**
   * Whether {@code type} contains a match.
   *
   * @throws ParameterException if the match takes over {@link #LIMIT}
   */
  @Override
  public boolean test(String type) {
    try {
      return pattern.matcher(new Bounded(type, System.nanoTime() + LIMIT.toNanos())).find();
    } catch (Overrun e) {
      throw new ParameterException(
          spec.commandLine(),
          "--type "
              + regex
              + " took over "
              + LIMIT.toSeconds()
              + " s to match one type name ("
              + (type.length() > 80 ? type.substring(0, 80) + "..." : type)
              + "): it backtracks without end, as a repetition inside a repetition such as (a+)*"
              + " does; write it without one");
    }
  }

  /** A match that ran out of time. */
  private static final class Overrun extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Overrun() {
      super(null, null, false, false);
    }
  }

  /** The text to match, which looks at the clock every few thousand characters read. */
  private static final class Bounded implements CharSequence {
    private final String text;
    private final long deadline;
    private int reads;

    Bounded(String text, long deadline) {
      this.text = text;
      this.deadline = deadline;
    }

    @Override
    public char charAt(int index) {
      if ((++reads & 0xFFF) == 0 && System.nanoTime() - deadline > 0) {
        throw new Overrun();
      }
      return text.charAt(index);
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return new Bounded(text.substring(start, end), deadline);
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
