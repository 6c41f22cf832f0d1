package dev.clrscope.dac;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GC descriptors as the runtime lays them out below a method table. */
class GcDescTest {
  private static List<Long> slots(GcDesc d, long size) {
    List<Long> out = new ArrayList<>();
    d.forEachSlot(size, out::add);
    return out;
  }

  // Series {size - baseSize, offset}, lowest address first; the count last.
  private static byte[] series(long... sizeOffsetPairs) {
    int n = sizeOffsetPairs.length / 2;
    ByteBuffer b = ByteBuffer.allocate(8 * (1 + 2 * n)).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = n - 1; i >= 0; i--) {
      b.putLong(sizeOffsetPairs[2 * i]).putLong(sizeOffsetPairs[2 * i + 1]);
    }
    b.putLong(n);
    return b.array();
  }

  @Test
  void fieldsOfAClass() {
    // A 40-byte object with references at 8 and 16 (one series of 16 bytes: size 16 - 40).
    GcDesc d = GcDesc.decode(1, series(16 - 40, 8));
    assertThat(slots(d, 40)).containsExactly(8L, 16L);
  }

  @Test
  void twoSeries() {
    GcDesc d = GcDesc.decode(2, series(8 - 48, 8, 8 - 48, 32));
    assertThat(slots(d, 48)).containsExactlyInAnyOrder(8L, 32L);
  }

  @Test
  void anArrayOfReferencesGrowsWithItsLength() {
    // object[]: elements from offset 16 (after the method table and the length) to the end of the
    // object, which starts 8 bytes before the method table: the series is size - 24 bytes long.
    GcDesc d = GcDesc.decode(1, series(-24, 16));
    assertThat(slots(d, 24 + 3 * 8)).containsExactly(16L, 24L, 32L);
  }

  @Test
  void anArrayOfStructsRepeatsItsPattern() {
    // Elements of 16 bytes from offset 16: a reference, then 8 bytes of data.
    ByteBuffer b = ByteBuffer.allocate(8 * 3).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(1).putInt(8); // one pointer, skip 8
    b.putLong(16); // start offset
    b.putLong(-1); // one repeating series
    GcDesc d = GcDesc.decode(-1, b.array());
    assertThat(slots(d, 16 + 3 * 16)).containsExactly(16L, 32L, 48L);
  }

  @Test
  void nonsenseIsNoDescriptorAndNeverLoops() {
    assertThat(GcDesc.decode(0, new byte[8])).isNull();
    assertThat(GcDesc.decode(1 << 20, new byte[8])).isNull();
    ByteBuffer b = ByteBuffer.allocate(8 * 3).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0).putInt(0).putLong(16).putLong(-1);
    assertThat(slots(GcDesc.decode(-1, b.array()), 1 << 20)).isEmpty();
    // A series that would run past the object is not followed.
    assertThat(slots(GcDesc.decode(1, series(1 << 20, 8)), 40)).isEmpty();
  }
}
