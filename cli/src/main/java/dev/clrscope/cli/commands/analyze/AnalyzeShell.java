package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.dacprocess.DacHost;
import dev.clrscope.cli.render.OutputFormat;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Terminal;
import dev.clrscope.dac.DacSession;
import dev.clrscope.symbols.SourceLines;
import java.io.PrintStream;
import java.util.List;

/**
 * Runs analyze's command lines on one target: parses a line, pauses a live target while the command
 * reads it, and has the command's result drawn in the chosen format (JSON: one document per
 * command, one per line; CSV: one table per command; a table: fitted to the terminal).
 */
final class AnalyzeShell {
  private final AnalysisTarget target;
  private final OutputFormat format;
  private final PrintStream out;
  private final PrintStream err;
  private final CommandTable commands = CommandTable.standard();
  private final AnalyzeContext context;
  private int shown;

  /**
   * @param lines finds the PDBs of frames' source lines, or null for none ({@code --no-lines})
   */
  AnalyzeShell(
      AnalysisTarget target,
      OutputFormat format,
      SourceLines lines,
      PrintStream out,
      PrintStream err) {
    this.target = target;
    this.format = format;
    this.out = out;
    this.err = err;
    this.context = new AnalyzeContext(commands, new AnalyzeContext.Session(lines));
  }

  CommandTable commands() {
    return commands;
  }

  AnalysisTarget target() {
    return target;
  }

  /**
   * What a command said of a heap it could not read whole, or null when every heap was read whole.
   */
  String heapNotWhole() {
    return context.session().heapNotWhole;
  }

  /** The command a line names (first word), checked; its words parsed. */
  record Parsed(SosCommand command, SosArgs args) {}

  /**
   * Parses a command line.
   *
   * @return null for a blank line
   * @throws SosUsageException when it is not a command or not how the command is used
   */
  Parsed parse(String line) {
    List<String> words = SosArgs.split(line);
    if (words.isEmpty()) {
      return null;
    }
    SosCommand c = commands.find(words.get(0));
    if (c == null) {
      throw new SosUsageException(
          "no command " + words.get(0) + " (help lists the commands; dotnet-dump's names work)");
    }
    return new Parsed(c, c.parse(words.subList(1, words.size())));
  }

  /** Whether the parsed line ends the session. */
  static boolean isExit(Parsed p) {
    return p != null && p.command() instanceof Exit;
  }

  /**
   * Runs a parsed command; the target is paused (if live) and left paused for the caller to
   * release.
   *
   * @param width the terminal's width for a table, 0 for none
   */
  void run(Parsed p, int width) {
    DacSession session = p.command().readsTarget(p.args()) ? target.pause() : null;
    Renderer renderer = Renderer.ofSession(format, out, err, width, shown == 0);
    context.use(session, renderer, err);
    try {
      p.command().run(context, p.args());
    } finally {
      out.flush();
      // All of the command's output is written: the front shows it now.
      DacHost.commandDone();
    }
    shown++;
  }

  /** The width a table fits on stdout when it is not an interactive prompt. */
  static int stdoutWidth() {
    return Terminal.stdoutColumns();
  }
}
