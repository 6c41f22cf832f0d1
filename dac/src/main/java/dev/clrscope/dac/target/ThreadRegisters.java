package dev.clrscope.dac.target;

import java.util.Arrays;

/**
 * One thread's general-purpose registers, in the kernel's {@code user_regs_struct} order for x86-64
 * (the order of {@code NT_PRSTATUS}'s {@code pr_reg} and of {@code PTRACE_GETREGS}).
 */
public final class ThreadRegisters {
  /** How many registers {@code user_regs_struct} holds on x86-64. */
  public static final int COUNT = 27;

  // Indexes into user_regs_struct.
  static final int R15 = 0;
  static final int R14 = 1;
  static final int R13 = 2;
  static final int R12 = 3;
  static final int RBP = 4;
  static final int RBX = 5;
  static final int R11 = 6;
  static final int R10 = 7;
  static final int R9 = 8;
  static final int R8 = 9;
  static final int RAX = 10;
  static final int RCX = 11;
  static final int RDX = 12;
  static final int RSI = 13;
  static final int RDI = 14;
  static final int RIP = 16;
  static final int CS = 17;
  static final int EFLAGS = 18;
  static final int RSP = 19;
  static final int SS = 20;
  static final int DS = 23;
  static final int ES = 24;
  static final int FS = 25;
  static final int GS = 26;

  /** The size of the Windows AMD64 {@code CONTEXT} the DAC reads registers in. */
  public static final int CONTEXT_SIZE = 1232;

  private static final int CONTEXT_AMD64 = 0x100000;
  private static final int CONTEXT_CONTROL = 1;
  private static final int CONTEXT_INTEGER = 2;
  private static final int CONTEXT_SEGMENTS = 4;

  private final int threadId;
  private final long[] registers;

  /**
   * @param threadId the OS thread id (the Linux tid)
   * @param registers {@link #COUNT} registers in {@code user_regs_struct} order
   */
  public ThreadRegisters(int threadId, long[] registers) {
    if (registers.length != COUNT) {
      throw new IllegalArgumentException(
          "x86-64 has " + COUNT + " registers, got " + registers.length);
    }
    this.threadId = threadId;
    this.registers = registers.clone();
  }

  /** The OS thread id. */
  public int threadId() {
    return threadId;
  }

  /** The instruction pointer. */
  public long rip() {
    return registers[RIP];
  }

  /** The stack pointer. */
  public long rsp() {
    return registers[RSP];
  }

  /**
   * The registers as a Windows AMD64 {@code CONTEXT} (control, integer and segment registers; the
   * rest zero), the layout the DAC's data target hands out on every platform.
   */
  public byte[] toContext() {
    java.nio.ByteBuffer c =
        java.nio.ByteBuffer.allocate(CONTEXT_SIZE).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    c.putInt(0x30, CONTEXT_AMD64 | CONTEXT_CONTROL | CONTEXT_INTEGER | CONTEXT_SEGMENTS);
    c.putShort(0x38, (short) registers[CS]);
    c.putShort(0x3a, (short) registers[DS]);
    c.putShort(0x3c, (short) registers[ES]);
    c.putShort(0x3e, (short) registers[FS]);
    c.putShort(0x40, (short) registers[GS]);
    c.putShort(0x42, (short) registers[SS]);
    c.putInt(0x44, (int) registers[EFLAGS]);
    int[] order = {
      RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15, RIP
    };
    for (int i = 0; i < order.length; i++) {
      c.putLong(0x78 + 8 * i, registers[order[i]]);
    }
    return c.array();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ThreadRegisters t
        && t.threadId == threadId
        && Arrays.equals(t.registers, registers);
  }

  @Override
  public int hashCode() {
    return threadId * 31 + Arrays.hashCode(registers);
  }

  @Override
  public String toString() {
    return "thread " + threadId + " rip=0x" + Long.toHexString(rip());
  }
}
