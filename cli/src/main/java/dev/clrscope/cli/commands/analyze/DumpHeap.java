package dev.clrscope.cli.commands.analyze;

import java.util.List;
import java.util.Set;

/** {@code dumpheap}: the objects of the heap, or their statistics per type. */
final class DumpHeap extends SosCommand {
  DumpHeap() {
    super(
        "dumpheap",
        List.of(),
        "dumpheap [-stat] [-short] [-strings] [-live|-dead] [-type SUBSTRING] [-mt MT] [-min N]"
            + " [-max N]",
        "Every object of the GC heap (or those of a type, a method table, a size range), then per"
            + " type the count and total size; -stat the statistics alone, -strings strings by"
            + " value; -live only what a root reaches, -dead only garbage not yet collected",
        SosArgs.Spec.of(
            Set.of("-stat", "-short", "-strings", "-live", "-dead"),
            Set.of("-type", "-mt", "-min", "-max"),
            0,
            0));
  }

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    HeapListing.show(context, filter(args, null).reached(reached(context, args)), shape(args));
  }

  /** The filter of {@code -type}, {@code -mt}, {@code -min}, {@code -max}. */
  static HeapListing.Filter filter(SosArgs args, dev.clrscope.dac.Generation generation) {
    long min = args.numberOption("-min", 0);
    long max = args.numberOption("-max", Long.MAX_VALUE);
    if (min > max) {
      throw args.usage("-min " + min + " is above -max " + max);
    }
    return new HeapListing.Filter(
        args.value("-type"), args.addressOption("-mt", 0), min, max, generation, null);
  }

  /**
   * What {@code -live} and {@code -dead} keep, from the exact heap graph (read once a core, once a
   * pause of a live process): objects a root reaches, or the others; null for both.
   */
  private static java.util.function.LongPredicate reached(AnalyzeContext context, SosArgs args) {
    if (args.has("-live") && args.has("-dead")) {
      throw args.usage("choose one of -live and -dead");
    }
    if (!args.has("-live") && !args.has("-dead")) {
      return null;
    }
    return args.has("-live") ? context.live() : context.dead();
  }

  /** What {@code -stat}, {@code -short} and {@code -strings} ask for. */
  static HeapListing.Shape shape(SosArgs args) {
    int chosen = (args.has("-stat") ? 1 : 0) + (args.has("-short") ? 1 : 0);
    if (args.has("-strings")) {
      chosen++;
    }
    if (chosen > 1) {
      throw args.usage("choose one of -stat, -short and -strings");
    }
    return args.has("-stat")
        ? HeapListing.Shape.STATISTICS
        : args.has("-short")
            ? HeapListing.Shape.ADDRESSES
            : args.has("-strings") ? HeapListing.Shape.STRINGS : HeapListing.Shape.OBJECTS;
  }
}
