package dev.clrscope.triage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The wait-for graph's cycles: each thread waits for at most one other (a lock's owner). */
class DeadlocksTest {
  private static Map<Integer, Integer> edges(int... pairs) {
    Map<Integer, Integer> next = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      next.put(pairs[i], pairs[i + 1]);
    }
    return next;
  }

  @Test
  void twoThreadsWaitingForEachOther() {
    assertThat(Deadlocks.cyclesOf(edges(1, 2, 2, 1))).containsExactly(List.of(1, 2));
  }

  @Test
  void aCycleOfThreeWithAThreadWaitingOnItFromOutside() {
    // 9 waits for 1, which is in the cycle 1 -> 2 -> 3 -> 1: 9 is blocked, not deadlocked itself.
    assertThat(Deadlocks.cyclesOf(edges(9, 1, 1, 2, 2, 3, 3, 1))).containsExactly(List.of(1, 2, 3));
  }

  @Test
  void waitsThatEndAtARunningThreadAreNoCycle() {
    // 1 waits for 2, 2 for 3, and 3 waits for nobody: contention, not a deadlock.
    assertThat(Deadlocks.cyclesOf(edges(1, 2, 2, 3))).isEmpty();
  }

  @Test
  void twoSeparateCyclesAreTwoFindings() {
    assertThat(Deadlocks.cyclesOf(edges(1, 2, 2, 1, 5, 6, 6, 7, 7, 5)))
        .containsExactly(List.of(1, 2), List.of(5, 6, 7));
  }
}
