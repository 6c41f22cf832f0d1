package dev.clrscope.cli.commands.trace;

import dev.clrscope.symbols.Frame;
import java.io.IOException;
import java.io.Writer;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Folded stacks, {@code root;caller;leaf count} (a frame with a line as {@code Method
 * (Program.cs:42)}), one line per distinct stack with its number of samples, sorted by stack: the
 * input of flamegraph.pl, speedscope and many others. Memory grows with the number of distinct
 * stacks only.
 */
final class FoldedStacksWriter implements ProfileWriter {
  private final Writer out;
  private final Map<String, long[]> counts = new HashMap<>();

  FoldedStacksWriter(Writer out) {
    this.out = out;
  }

  @Override
  public void sample(StackSample s) {
    StringBuilder sb = new StringBuilder();
    for (Frame f : s.frames()) {
      if (sb.length() > 0) {
        sb.append(';');
      }
      // ';' separates frames (the count follows the last space, so spaces may stay).
      sb.append(f.text().replace(';', ','));
    }
    counts.computeIfAbsent(sb.toString(), k -> new long[1])[0]++;
  }

  @Override
  public void finish() throws IOException {
    for (Map.Entry<String, long[]> e : new TreeMap<>(counts).entrySet()) {
      out.write(e.getKey());
      out.write(' ');
      out.write(Long.toString(e.getValue()[0]));
      out.write('\n');
    }
    out.flush();
  }
}
