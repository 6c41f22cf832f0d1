package dev.clrscope.dac;

/**
 * An entry of the runtime's sync block table (SOS's {@code syncblk}): the object's monitor.
 *
 * @param index its number (1-based)
 * @param address the SyncBlock
 * @param object the object it belongs to
 * @param monitorHeld the monitor's held count (odd: owned; plus 2 per waiter)
 * @param recursion how many times the owner entered it
 * @param owningThread the runtime Thread that owns it, or 0
 * @param owningOsThreadId that thread's OS id, or 0
 * @param waiters threads waiting on it
 */
public record SyncBlock(
    int index,
    long address,
    long object,
    int monitorHeld,
    int recursion,
    long owningThread,
    int owningOsThreadId,
    int waiters) {
  /**
   * The threads waiting to enter a monitor: its held count is 1 while owned, plus 2 for each thread
   * waiting (MonitorHeld 7 = owned, 3 waiting; ClrMD counts them so), and the DAC's additional
   * thread count (0 on .NET 10 even with threads waiting) where the held count says nothing.
   */
  public static int waiters(int monitorHeld, int additionalThreadCount) {
    return monitorHeld != 0 ? monitorHeld >>> 1 : additionalThreadCount;
  }

  /** Whether a thread holds the lock. */
  public boolean isOwned() {
    return owningThread != 0;
  }
}
