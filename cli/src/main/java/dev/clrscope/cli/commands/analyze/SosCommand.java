package dev.clrscope.cli.commands.analyze;

import java.util.List;

/**
 * One command of analyze's prompt, named and used as SOS names it (dotnet-dump's users type what
 * they know). A command reads the target through {@link AnalyzeContext#runtime()} and {@link
 * AnalyzeContext#heap()} and hands what it found to the context's renderer as a report or a stream
 * of records; it never prints data.
 */
abstract class SosCommand {
  private final String name;
  private final List<String> aliases;
  private final String synopsis;
  private final String summary;
  private final SosArgs.Spec spec;

  /**
   * @param name the SOS name
   * @param aliases other names SOS (or the triage extensions) accept
   * @param synopsis how it is used, as {@code help} shows it
   * @param summary what it shows, one sentence
   * @param spec the options and arguments it takes
   */
  SosCommand(
      String name, List<String> aliases, String synopsis, String summary, SosArgs.Spec spec) {
    this.name = name;
    this.aliases = List.copyOf(aliases);
    this.synopsis = synopsis;
    this.summary = summary;
    this.spec = spec;
  }

  final String name() {
    return name;
  }

  final List<String> aliases() {
    return aliases;
  }

  final String synopsis() {
    return synopsis;
  }

  final String summary() {
    return summary;
  }

  /** What it takes. */
  final SosArgs.Spec spec() {
    return spec;
  }

  /** Parses the words after the command's name. */
  final SosArgs parse(List<String> words) {
    return SosArgs.parse(name, synopsis, words, spec);
  }

  /** Whether it reads the target (a live process is paused for it); help and exit do not. */
  boolean readsTarget(SosArgs args) {
    return true;
  }

  /** Does the command's work. */
  abstract void run(AnalyzeContext context, SosArgs args);
}
