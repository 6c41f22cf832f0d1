package dev.clrscope.ipc.client;

/** The kinds of core dump the runtime's createdump writes: the {@code u32 dumpType} field. */
public enum DumpType {
  /** 1: threads, stacks and modules; the smallest useful dump. */
  MINI(1),
  /** 2: as mini, plus the GC heap: enough to analyse managed memory. */
  HEAP(2),
  /** 3: a mini dump with personal data removed. */
  TRIAGE(3),
  /** 4: all of the process's memory. */
  FULL(4);

  private final int code;

  DumpType(int code) {
    this.code = code;
  }

  /** The value on the wire. */
  public int code() {
    return code;
  }
}
