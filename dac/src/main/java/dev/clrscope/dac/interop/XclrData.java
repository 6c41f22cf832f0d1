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
