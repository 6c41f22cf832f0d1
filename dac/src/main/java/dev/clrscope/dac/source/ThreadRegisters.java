package dev.clrscope.dac.source;

import dev.clrscope.dac.interop.DacStructs.CONTEXT;
import dev.clrscope.dac.interop.Struct;
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
    byte[] bytes = new byte[CONTEXT.LAYOUT.size()];
    Struct<CONTEXT> c =
        CONTEXT.LAYOUT.view(
            java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN), 0);
    c.putInt32(CONTEXT.ContextFlags, CONTEXT.CONTROL | CONTEXT.INTEGER | CONTEXT.SEGMENTS);
    c.putUint16(CONTEXT.SegCs, (int) registers[CS]);
    c.putUint16(CONTEXT.SegDs, (int) registers[DS]);
    c.putUint16(CONTEXT.SegEs, (int) registers[ES]);
    c.putUint16(CONTEXT.SegFs, (int) registers[FS]);
    c.putUint16(CONTEXT.SegGs, (int) registers[GS]);
    c.putUint16(CONTEXT.SegSs, (int) registers[SS]);
    c.putInt32(CONTEXT.EFlags, (int) registers[EFLAGS]);
    c.putUint64(CONTEXT.Rax, registers[RAX]);
    c.putUint64(CONTEXT.Rcx, registers[RCX]);
    c.putUint64(CONTEXT.Rdx, registers[RDX]);
    c.putUint64(CONTEXT.Rbx, registers[RBX]);
    c.putUint64(CONTEXT.Rsp, registers[RSP]);
    c.putUint64(CONTEXT.Rbp, registers[RBP]);
    c.putUint64(CONTEXT.Rsi, registers[RSI]);
    c.putUint64(CONTEXT.Rdi, registers[RDI]);
    c.putUint64(CONTEXT.R8, registers[R8]);
    c.putUint64(CONTEXT.R9, registers[R9]);
    c.putUint64(CONTEXT.R10, registers[R10]);
    c.putUint64(CONTEXT.R11, registers[R11]);
    c.putUint64(CONTEXT.R12, registers[R12]);
    c.putUint64(CONTEXT.R13, registers[R13]);
    c.putUint64(CONTEXT.R14, registers[R14]);
    c.putUint64(CONTEXT.R15, registers[R15]);
    c.putUint64(CONTEXT.Rip, registers[RIP]);
    return bytes;
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
