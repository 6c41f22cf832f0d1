package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.dacprocess.DacHost;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.options.OutputFormat;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Terminal;
import dev.clrscope.dac.ClrProcess;
import dev.clrscope.symbols.SourceLines;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
  private final OneLineJson json;
  private final PrintStream jsonOut;
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
    if (format == OutputFormat.json) {
      json = new OneLineJson(out);
      jsonOut = new PrintStream(json, false, StandardCharsets.UTF_8);
    } else {
      json = null;
      jsonOut = null;
    }
  }

  CommandTable commands() {
    return commands;
  }

  AnalysisTarget target() {
    return target;
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
    ClrProcess process = p.command().readsTarget(p.args()) ? target.pause() : null;
    Renderer renderer =
        switch (format) {
          case json -> Renderer.of(OutputFormat.json, jsonOut, err, 0);
          case table -> Renderer.of(OutputFormat.table, out, err, width);
          default -> FormatOption.renderer(format, out, err);
        };
    if (format == OutputFormat.table && shown > 0) {
      out.println();
    }
    context.use(process, renderer, err);
    try {
      p.command().run(context, p.args());
    } finally {
      endOutput();
    }
    shown++;
  }

  private void endOutput() {
    if (json != null) {
      jsonOut.flush();
      try {
        json.endLine();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    out.flush();
    DacHost.commandDone();
  }

  /** The width a table fits on stdout when it is not an interactive prompt. */
  static int stdoutWidth() {
    return Terminal.stdoutColumns();
  }
}
