package dev.clrscope.nettrace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The parser's id map holds what a HashMap holds, through puts, removes and clears. */
class IdMapTest {
  @Test
  void agreesWithAHashMap() {
    SplittableRandom random = new SplittableRandom(35);
    IdMap<Long> table = new IdMap<>();
    Map<Long, Long> map = new HashMap<>();
    for (int round = 0; round < 200_000; round++) {
      // Few distinct keys, so that removes and collisions are common; some of them huge.
      long key = random.nextInt(4) == 0 ? random.nextLong() : random.nextInt(3000);
      int op = random.nextInt(10);
      if (op < 6) {
        table.put(key, (long) round);
        map.put(key, (long) round);
      } else if (op < 9) {
        table.remove(key);
        map.remove(key);
      } else if (round % 5000 == 0) {
        table.clear();
        map.clear();
      }
      assertThat(table.get(key)).isEqualTo(map.get(key));
      assertThat(table.size()).isEqualTo(map.size());
    }
    for (Map.Entry<Long, Long> e : map.entrySet()) {
      assertThat(table.get(e.getKey())).isEqualTo(e.getValue());
    }
  }
}
