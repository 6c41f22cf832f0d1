package dev.clrscope.cli.commands.trace;

/** What {@code trace convert} (and {@code trace collect --format}) can turn a trace into. */
public enum ConversionFormat {
  /** speedscope's JSON file format: one sampled profile per thread. */
  speedscope(".speedscope.json"),
  /** The Chrome trace-event format (chrome://tracing, Perfetto): a JSON array of events. */
  chromium(".chromium.json"),
  /** Brendan Gregg's folded stacks, {@code root;...;leaf count}, for flamegraph.pl and others. */
  folded(".folded.txt");

  private final String suffix;

  ConversionFormat(String suffix) {
    this.suffix = suffix;
  }

  /** The file name suffix, with its dot. */
  public String suffix() {
    return suffix;
  }
}
