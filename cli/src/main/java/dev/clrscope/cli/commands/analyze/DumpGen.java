package dev.clrscope.cli.commands.analyze;

import dev.clrscope.dac.Generation;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** {@code dumpgen}: the objects of one generation (the triage extensions' command). */
final class DumpGen extends SosCommand {
  DumpGen() {
    super(
        "dumpgen",
        List.of(),
        "dumpgen 0|1|2|loh|poh [-stat] [-short] [-type SUBSTRING] [-mt MT]",
        "The objects of one generation (gen0, gen1, gen2, the large or pinned object heap), then"
            + " their statistics per type; -stat the statistics alone",
        SosArgs.Spec.of(Set.of("-stat", "-short"), Set.of("-type", "-mt"), 1, 1));
  }

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    Generation g = generation(args.positional(0));
    if (g == null) {
      throw args.usage("not a generation: " + args.positional(0) + " (0, 1, 2, loh or poh)");
    }
    HeapListing.show(context, DumpHeap.filter(args, g), DumpHeap.shape(args));
  }

  static Generation generation(String word) {
    return switch (word.toLowerCase(Locale.ROOT)) {
      case "0", "gen0" -> Generation.GEN0;
      case "1", "gen1" -> Generation.GEN1;
      case "2", "gen2" -> Generation.GEN2;
      case "3", "loh" -> Generation.LARGE;
      case "4", "poh" -> Generation.PINNED;
      default -> null;
    };
  }
}
