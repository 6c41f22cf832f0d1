package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.render.Unit;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.HeapSnapshot.Retainer;
import dev.clrscope.heapwalk.TypeStatistics;
import java.util.List;
import java.util.function.Function;

/**
 * What a dominator tree cannot show: objects held from more than one place (a leak owned twice) are
 * dominated by the root alone, so the top of the tree retains little while their type retains most
 * of the heap. When the top is far below the biggest type's share, a note says so and where to look
 * instead.
 */
public final class SharedOwnershipNote {
  private SharedOwnershipNote() {}

  /** A type's share below this is not worth a note. */
  private static final double NOTABLE_SHARE = 0.25;

  /**
   * The note, or {@code null} when the top of the tree is near what the biggest type retains.
   *
   * @param top the tree's first level, biggest first
   * @param lookAt what to run for a type's name: the command that shows what it retains
   */
  public static String of(HeapSnapshot s, List<Retainer> top, Function<String, String> lookAt) {
    long reachable = s.reachableSize();
    if (reachable <= 0) {
      return null;
    }
    TypeStatistics biggest = null;
    for (TypeStatistics t : s.typeStatistics()) {
      if (biggest == null || t.retainedSize() > biggest.retainedSize()) {
        biggest = t;
      }
    }
    long topRetained = top.isEmpty() ? 0 : top.get(0).retained();
    if (biggest == null
        || biggest.retainedSize() < NOTABLE_SHARE * reachable
        || topRetained * 2 > biggest.retainedSize()) {
      return null;
    }
    return "The biggest retainer here holds "
        + Unit.percent(topRetained, reachable).toPlainString()
        + "% of the heap, but the "
        + Unit.count(biggest.count())
        + " objects of "
        + biggest.type()
        + " retain "
        + Unit.percent(biggest.retainedSize(), reachable).toPlainString()
        + "% between them: no one object owns them (they are held from more than one place). "
        + lookAt.apply(biggest.type());
  }
}
