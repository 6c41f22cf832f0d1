package dev.clrscope.monitor.heap;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;

/**
 * One heap walk of a process at a time among clrscope's runs (every {@code dump-heap}, every {@code
 * serve}): two walks at once leave the second without type names, since the runtime names each type
 * once for every session. A walk holds an exclusive lock on {@code
 * TMPDIR/clrscope-heapwalk-PID.lock}; a second one waits for it, saying so, for as long as it may
 * take itself. The lock is the operating system's, so a run that is killed lets go of it. Other
 * tools (dotnet-gcdump) take no such lock: {@link HeapWalk} recognises their walk by the types left
 * unnamed.
 */
final class WalkLock implements AutoCloseable {
  private static final Duration POLL = Duration.ofMillis(100);

  private final FileChannel channel;
  private final FileLock lock;

  private WalkLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock of process {@code pid}'s heap, waiting up to {@code limit} for another walk; no
   * lock (nothing to close) when {@code pid} is unknown or the lock file cannot be used (another
   * user's).
   *
   * @throws HeapWalk.WalkFailure if another walk holds it longer than {@code limit}
   */
  static WalkLock acquire(long pid, String target, Duration limit, HeapWalk.Listener listener)
      throws InterruptedException {
    if (pid <= 0) {
      return new WalkLock(null, null);
    }
    Path file = Path.of(System.getProperty("java.io.tmpdir"), "clrscope-heapwalk-" + pid + ".lock");
    FileChannel ch;
    try {
      ch =
          FileChannel.open(
              file,
              java.util.Set.of(
                  StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (IOException | UnsupportedOperationException e) {
      return new WalkLock(null, null);
    }
    long deadline = System.nanoTime() + limit.toNanos();
    boolean said = false;
    try {
      while (true) {
        FileLock l;
        try {
          l = ch.tryLock();
        } catch (OverlappingFileLockException e) {
          // This JVM walks it already (two /gcdump of one serve are refused before; a rule's).
          l = null;
        }
        if (l != null) {
          return new WalkLock(ch, l);
        }
        if (System.nanoTime() - deadline > 0) {
          throw new HeapWalk.WalkFailure(
              "another clrscope has been walking the heap of "
                  + target
                  + " for longer than "
                  + limit.toSeconds()
                  + " s: try again when it is done");
        }
        if (!said) {
          listener.note(
              "Another clrscope is walking the heap of " + target + ": waiting for it ...");
          said = true;
        }
        Thread.sleep(POLL.toMillis());
      }
    } catch (IOException e) {
      close(ch);
      return new WalkLock(null, null);
    } catch (RuntimeException | InterruptedException e) {
      close(ch);
      throw e;
    }
  }

  private static void close(FileChannel ch) {
    try {
      ch.close();
    } catch (IOException e) {
      // Nothing held.
    }
  }

  @Override
  public void close() {
    if (channel != null) {
      try {
        lock.release();
      } catch (IOException e) {
        // Released with the channel below.
      }
      close(channel);
    }
  }
}
