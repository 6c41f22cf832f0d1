package dev.clrscope.symbols;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ManagedCodeMapTest {
  @Test
  void looksUpByIntervalAndMergesMethodsAddedLater() {
    ManagedCodeMap m = new ManagedCodeMap();
    m.add(0x1000, 0x100, "A", "One", "void  ()");
    m.add(0x3000, 0x10, "A", "Three", "void  ()");
    assertThat(m.nameOrNull(0x1000)).isEqualTo("A.One");
    assertThat(m.nameOrNull(0x10ff)).isEqualTo("A.One");
    assertThat(m.nameOrNull(0x1100)).isNull();
    assertThat(m.nameOrNull(0xfff)).isNull();
    // Added after a lookup: merged in at the next one.
    m.add(0x2000, 0x20, "A", "Two", "void  ()");
    assertThat(m.nameOrNull(0x2010)).isEqualTo("A.Two");
    assertThat(m.nameOrNull(0x300f)).isEqualTo("A.Three");
    assertThat(m.size()).isEqualTo(3);
  }

  @Test
  void aNewerMethodAtTheSameStartReplacesTheOlder() {
    ManagedCodeMap m = new ManagedCodeMap();
    m.add(0x1000, 0x100, "A", "Old", "");
    assertThat(m.nameOrNull(0x1000)).isEqualTo("A.Old");
    m.add(0x1000, 0x80, "A", "New", "");
    m.add(0x1000, 0x40, "A", "Newest", "");
    assertThat(m.nameOrNull(0x1000)).isEqualTo("A.Newest");
    assertThat(m.nameOrNull(0x1050)).isNull();
    assertThat(m.size()).isEqualTo(1);
  }

  @Test
  void addressesAboveTheSignBitAndEmptyMethods() {
    ManagedCodeMap m = new ManagedCodeMap();
    m.add(0xffff_8000_0000_0000L, 0x10, "K", "High", "");
    m.add(0x10, 0x10, "K", "Low", "");
    m.add(0x5000, 0, "K", "NoCode", "");
    assertThat(m.nameOrNull(0xffff_8000_0000_0008L)).isEqualTo("K.High");
    assertThat(m.nameOrNull(0x18)).isEqualTo("K.Low");
    assertThat(m.nameOrNull(0x5000)).isNull();
    assertThat(m.size()).isEqualTo(2);
  }

  @Test
  void manyMethodsInRandomOrder() {
    ManagedCodeMap m = new ManagedCodeMap();
    java.util.Random r = new java.util.Random(1);
    int n = 50_000;
    int[] perm = new int[n];
    for (int i = 0; i < n; i++) {
      perm[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    for (int i = 0; i < n; i++) {
      m.add(0x10000L + perm[i] * 0x40L, 0x30, "T", "M" + perm[i], "");
      if (i % 5000 == 0) {
        assertThat(m.nameOrNull(0x10000L + perm[i] * 0x40L + 1)).isEqualTo("T.M" + perm[i]);
      }
    }
    for (int k = 0; k < n; k += 997) {
      assertThat(m.nameOrNull(0x10000L + k * 0x40L + 0x2f)).isEqualTo("T.M" + k);
      assertThat(m.nameOrNull(0x10000L + k * 0x40L + 0x30)).isNull();
    }
    assertThat(m.size()).isEqualTo(n);
  }
}
