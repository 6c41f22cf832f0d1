package dev.clrscope.dac.interop;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.clrscope.dac.interop.DacInterfaces.IXCLRDataMethodInstance;
import dev.clrscope.dac.interop.DacInterfaces.IXCLRDataProcess;
import dev.clrscope.dac.interop.DacInterfaces.IXCLRDataStackWalk;
import dev.clrscope.dac.interop.DacInterfaces.IXCLRDataTask;
import dev.clrscope.dac.interop.DacStructs.CONTEXT;

/**
 * The {@code IXCLRDataProcess} calls this module makes (from {@code xclrdata.idl}): a thread's
 * task, its managed stack walk, a code address's IL offset. Not thread-safe: owning thread only.
 */
public final class XclrData {
  /**
   * CLRDATA_SIMPFRAME_UNRECOGNIZED | MANAGED_METHOD | RUNTIME_MANAGED_CODE |
   * RUNTIME_UNMANAGED_CODE.
   */
  private static final int ALL_FRAMES = 0xf;

  /** DACSTACKPRIV_REQUEST_FRAME_DATA: the explicit Frame the walk stands on, or 0. */
  private static final int REQUEST_FRAME_DATA = 0xf0000000;

  private final ComObject<IXCLRDataProcess> process;

  public XclrData(ComObject<IXCLRDataProcess> process) {
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
    if (process.call(
            IXCLRDataProcess.StartEnumMethodInstancesByAddress, address, Pointer.NULL, handle)
        != Hresult.S_OK) {
      return NO_IL_OFFSET;
    }
    try {
      Memory out = new Memory(8);
      out.setPointer(0, null);
      if (process.call(IXCLRDataProcess.EnumMethodInstanceByAddress, handle, out) != Hresult.S_OK
          || out.getPointer(0) == null) {
        return NO_IL_OFFSET;
      }
      ComObject<IXCLRDataMethodInstance> instance =
          new ComObject<>(out.getPointer(0), IXCLRDataMethodInstance.ID);
      try {
        Memory offsets = new Memory(4 * 8);
        Memory needed = new Memory(4);
        needed.setInt(0, 0);
        if (instance.call(
                IXCLRDataMethodInstance.GetILOffsetsByAddress, address, 8, needed, offsets)
            < 0) {
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
      process.call(IXCLRDataProcess.EndEnumMethodInstancesByAddress, handle.getLong(0));
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
    if (process.call(IXCLRDataProcess.GetTaskByOSThreadID, osThreadId, out) < 0
        || out.getPointer(0) == null) {
      return false;
    }
    ComObject<IXCLRDataTask> task = new ComObject<>(out.getPointer(0), IXCLRDataTask.ID);
    try {
      out.setPointer(0, null);
      if (task.call(IXCLRDataTask.CreateStackWalk, ALL_FRAMES, out) < 0
          || out.getPointer(0) == null) {
        return false;
      }
      ComObject<IXCLRDataStackWalk> walk =
          new ComObject<>(out.getPointer(0), IXCLRDataStackWalk.ID);
      try {
        int size = CONTEXT.LAYOUT.size();
        Memory context = CONTEXT.LAYOUT.allocate(1);
        Memory contextSize = new Memory(4);
        Memory frame = new Memory(8);
        for (int i = 0; i < maxFrames; i++) {
          context.clear();
          if (walk.call(IXCLRDataStackWalk.GetContext, CONTEXT.ALL, size, contextSize, context)
              < 0) {
            break;
          }
          Struct<CONTEXT> c = CONTEXT.LAYOUT.view(context);
          frame.setLong(0, 0);
          if (walk.call(IXCLRDataStackWalk.Request, REQUEST_FRAME_DATA, 0, Pointer.NULL, 8, frame)
              < 0) {
            frame.setLong(0, 0);
          }
          WalkFrame f =
              new WalkFrame(c.uint64(CONTEXT.Rip), c.uint64(CONTEXT.Rsp), frame.getLong(0));
          if (!visitor.frame(f)) {
            break;
          }
          if (walk.call(IXCLRDataStackWalk.Next) != Hresult.S_OK) {
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
