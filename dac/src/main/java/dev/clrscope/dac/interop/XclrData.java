package dev.clrscope.dac.interop;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The {@code IXCLRDataProcess} calls this module makes (from {@code xclrdata.idl}): a thread's
 * task, its managed stack walk. Not thread-safe: owning thread only.
 */
public final class XclrData {
  /**
   * CLRDATA_SIMPFRAME_UNRECOGNIZED | MANAGED_METHOD | RUNTIME_MANAGED_CODE |
   * RUNTIME_UNMANAGED_CODE.
   */
  private static final int ALL_FRAMES = 0xf;

  /** DACSTACKPRIV_REQUEST_FRAME_DATA: the explicit Frame the walk stands on, or 0. */
  private static final int REQUEST_FRAME_DATA = 0xf0000000;

  /** CONTEXT_AMD64 | CONTROL | INTEGER | SEGMENTS | FLOATING_POINT | DEBUG_REGISTERS. */
  private static final int CONTEXT_ALL = 0x10001f;

  private final ComObject process;

  public XclrData(ComObject process) {
    this.process = process;
  }

  /** CLRDATA_IL_OFFSET_NO_MAPPING and the prolog and epilog markers: no IL instruction. */
  private static final int NO_IL_OFFSET = -1;

  /**
   * The IL offset of the managed code at {@code address}, as the DAC maps it (the method instance
   * whose code holds it, then its IL-to-native map: {@code IXCLRDataMethodInstance::
   * GetILOffsetsByAddress}); -1 when no method holds it or the address is in code of no IL
   * instruction (a prolog, an epilog, no mapping).
   */
  public int ilOffset(long address) {
    Memory handle = new Memory(8);
    handle.setLong(0, 0);
    // StartEnumMethodInstancesByAddress(address, appDomain: null, &handle).
    if (process.call(27, address, Pointer.NULL, handle) != Hresult.S_OK) {
      return NO_IL_OFFSET;
    }
    try {
      Memory out = new Memory(8);
      out.setPointer(0, null);
      // EnumMethodInstanceByAddress(&handle, &instance).
      if (process.call(28, handle, out) != Hresult.S_OK || out.getPointer(0) == null) {
        return NO_IL_OFFSET;
      }
      ComObject instance = new ComObject(out.getPointer(0));
      try {
        Memory offsets = new Memory(4 * 8);
        Memory needed = new Memory(4);
        needed.setInt(0, 0);
        // GetILOffsetsByAddress(address, offsetsLen, &offsetsNeeded, ilOffsets).
        if (instance.call(12, address, 8, needed, offsets) < 0) {
          return NO_IL_OFFSET;
        }
        int n = needed.getInt(0);
        if (n < 1) {
          return NO_IL_OFFSET;
        }
        // Several offsets when code is shared by several IL instructions: the first is the one
        // the runtime's own stack traces take.
        int il = offsets.getInt(0);
        return il < 0 ? NO_IL_OFFSET : il;
      } finally {
        instance.release();
      }
    } finally {
      // EndEnumMethodInstancesByAddress(handle).
      process.call(29, handle.getLong(0));
    }
  }

  /** One position of a stack walk: the context's IP and SP and the explicit frame, if any. */
  public record WalkFrame(long ip, long sp, long frameAddress) {}

  /** Receives the frames of a walk. */
  public interface FrameVisitor {
    /** Returns false to stop the walk. */
    boolean frame(WalkFrame frame);
  }

  /**
   * Walks the managed stack of the thread with OS id {@code osThreadId}, innermost frame first.
   *
   * @return false when the DAC has no task or no walk for that thread
   */
  public boolean walkStack(int osThreadId, int maxFrames, FrameVisitor visitor) {
    Memory out = new Memory(8);
    out.setPointer(0, null);
    if (process.call(7, osThreadId, out) < 0 || out.getPointer(0) == null) {
      return false;
    }
    ComObject task = new ComObject(out.getPointer(0));
    try {
      out.setPointer(0, null);
      if (task.call(11, ALL_FRAMES, out) < 0 || out.getPointer(0) == null) {
        return false;
      }
      ComObject walk = new ComObject(out.getPointer(0));
      try {
        Memory context = new Memory(1232);
        Memory size = new Memory(4);
        Memory frame = new Memory(8);
        for (int i = 0; i < maxFrames; i++) {
          context.clear();
          if (walk.call(3, CONTEXT_ALL, 1232, size, context) < 0) {
            break;
          }
          ByteBuffer c = context.getByteBuffer(0, 1232).order(ByteOrder.LITTLE_ENDIAN);
          frame.setLong(0, 0);
          if (walk.call(9, REQUEST_FRAME_DATA, 0, Pointer.NULL, 8, frame) < 0) {
            frame.setLong(0, 0);
          }
          if (!visitor.frame(new WalkFrame(c.getLong(0xf8), c.getLong(0x98), frame.getLong(0)))) {
            break;
          }
          if (walk.call(5) != Hresult.S_OK) {
            break;
          }
        }
        return true;
      } finally {
        walk.release();
      }
    } finally {
      task.release();
    }
  }
}
