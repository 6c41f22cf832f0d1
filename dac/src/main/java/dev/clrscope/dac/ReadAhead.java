package dev.clrscope.dac;

import dev.clrscope.dac.source.TargetMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Target memory read in large blocks, the next one read on a second thread while this one is parsed
 * (target memory may be read from any thread), each block handed over as little-endian words: a
 * word is then one array load in every tier of the JIT, where a byte buffer's or a byte-array
 * view's read is a chain of calls until the optimising compiler has inlined it, which a walk's
 * first million objects do not wait for. A prefetch the reader does not use (it jumped over a large
 * object) is dropped.
 */
final class ReadAhead {
  static final int BLOCK = 1 << 20;

  private static final ExecutorService READER =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "clrscope-dac read-ahead");
            t.setDaemon(true);
            return t;
          });

  private final TargetMemory memory;
  // One word more than a block holds: an unaligned word's second half is always there.
  private long[] current = new long[BLOCK / 8 + 1];
  private long[] spare = new long[BLOCK / 8 + 1];
  private final byte[] bytes = new byte[BLOCK];
  private final byte[] aheadBytes = new byte[BLOCK];
  private long base;
  private int length;
  private Future<Integer> pending;
  private long pendingBase;

  ReadAhead(TargetMemory memory) {
    this.memory = memory;
  }

  /** Where the block {@link #block} gave last starts in target memory. */
  long base() {
    return base;
  }

  /** How many bytes of it were readable. */
  int length() {
    return length;
  }

  /**
   * A block holding at least {@code need} bytes at {@code address} if they are readable: the
   * prefetched one if it does, else up to {@code want} bytes read now from {@code address}. Its
   * words stay valid until the next call.
   */
  long[] block(long address, int want, int need) {
    Integer prefetched = awaitPending();
    if (prefetched != null
        && address - pendingBase >= 0
        && address - pendingBase + need <= prefetched) {
      long[] t = current;
      current = spare;
      spare = t;
      base = pendingBase;
      length = prefetched;
    } else {
      base = address;
      length = read(memory, address, bytes, current, want);
    }
    return current;
  }

  /**
   * Reads {@code want} bytes at {@code address} on the second thread, for the next {@link #block}.
   */
  void prefetch(long address, int want) {
    long[] into = spare;
    pendingBase = address;
    pending = READER.submit(() -> read(memory, address, aheadBytes, into, want));
  }

  /** Waits for a prefetch still under way: its buffers are not to be written after this. */
  void finish() {
    awaitPending();
  }

  private Integer awaitPending() {
    Future<Integer> p = pending;
    pending = null;
    if (p == null) {
      return null;
    }
    try {
      return p.get();
    } catch (ExecutionException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /**
   * Appends the non-null words of {@code count} at {@code address} to {@code into}, reading a block
   * at a time, the next one ahead, and no further than {@code limit}: a large array's elements. A
   * word that is not readable is not given.
   */
  void nonZeroWords(long address, long count, long limit, ReferenceBuffer into) {
    long at = address;
    long stop = address + 8 * count;
    while (at < stop) {
      long[] words = block(at, (int) Math.min(BLOCK, limit - at), 8);
      if (length < 8) {
        at += 8; // as a word at a time would: the next one may be readable
        continue;
      }
      long end = Math.min(stop, base + (length & ~7));
      if (end < stop) {
        prefetch(end, (int) Math.min(BLOCK, limit - end));
      }
      int from = (int) (at - base);
      int n = (int) ((end - at) >>> 3);
      if ((from & 7) == 0) {
        for (int i = from >>> 3, last = i + n; i < last; i++) {
          long w = words[i];
          if (w != 0) {
            into.add(w);
          }
        }
      } else {
        for (int k = from, last = from + 8 * n; k < last; k += 8) {
          long w = word(words, k);
          if (w != 0) {
            into.add(w);
          }
        }
      }
      at += 8L * n;
    }
  }

  /**
   * The little-endian word at byte {@code at} of {@code words} (a block's), at any alignment: two
   * words' halves where it is not on a word.
   */
  static long word(long[] words, int at) {
    int i = at >>> 3;
    int shift = (at & 7) << 3;
    return shift == 0 ? words[i] : words[i] >>> shift | words[i + 1] << (64 - shift);
  }

  private static int read(
      TargetMemory memory, long address, byte[] scratch, long[] into, int want) {
    int n = memory.read(address, scratch, 0, want);
    if (n <= 0) {
      return 0;
    }
    int whole = n >>> 3;
    ByteBuffer.wrap(scratch, 0, n)
        .order(ByteOrder.LITTLE_ENDIAN)
        .asLongBuffer()
        .get(into, 0, whole);
    int tail = n & 7;
    if (tail > 0) {
      long w = 0;
      for (int k = 0; k < tail; k++) {
        w |= (scratch[8 * whole + k] & 0xffL) << (8 * k);
      }
      into[whole] = w;
    }
    return n;
  }
}
