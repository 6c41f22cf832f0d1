package dev.clrscope.dac;

import dev.clrscope.dac.interop.SosDac;
import java.util.ArrayList;
import java.util.List;

/**
 * The runtime view's threads, their managed stacks, method names and exceptions, read on the owner
 * thread.
 */
final class ThreadReader {
  /** A stack deeper than this is cut: a corrupt stack must not walk for ever. */
  static final int MAX_FRAMES = 4096;

  private final DacSession session;
  private final ClrReader reader;
  private final SosDac sos;
  private final LongMap<String> methodNames = new LongMap<>();
  private final LongMap<String> frameNames = new LongMap<>();
  private List<ClrThread> threads;

  ThreadReader(DacSession session, ClrReader reader) {
    this.session = session;
    this.reader = reader;
    this.sos = session.sos();
  }

  List<ClrThread> threads() {
    if (threads != null) {
      return threads;
    }
    List<ClrThread> out = new ArrayList<>();
    SosDac.ThreadStoreData store = sos.threadStoreData();
    if (store != null) {
      long t = store.firstThread();
      for (int i = 0; t != 0 && i < 100_000; i++) {
        SosDac.ThreadData d = sos.threadData(t);
        if (d == null) {
          break;
        }
        long exception = 0;
        if (d.lastThrownObjectHandle() != 0) {
          exception = reader.readLongOrZero(d.lastThrownObjectHandle());
        }
        out.add(
            new ClrThread(
                t,
                d.osId(),
                d.managedId(),
                d.state(),
                d.cooperative(),
                d.lockCount(),
                exception,
                t == store.finalizerThread(),
                d.allocContextPtr(),
                d.allocContextLimit()));
        t = d.nextThread();
      }
    }
    threads = List.copyOf(out);
    return threads;
  }

  ClrThread thread(int osId) {
    for (ClrThread t : threads()) {
      if (t.osId() == osId) {
        return t;
      }
    }
    return null;
  }

  List<StackFrame> stack(int osThreadId) {
    List<StackFrame> frames = new ArrayList<>();
    session
        .xclr()
        .walkStack(
            osThreadId,
            MAX_FRAMES,
            f -> {
              session.checkStop();
              if (f.frameAddress() != 0) {
                long vtable = reader.readLongOrZero(f.frameAddress());
                long md = sos.methodDescFromFrame(f.frameAddress());
                frames.add(
                    new StackFrame(
                        f.ip(),
                        f.frameAddress(),
                        md,
                        md == 0 ? null : methodName(md),
                        frameName(vtable)));
              } else {
                long md = sos.methodDescFromIp(f.ip());
                frames.add(
                    new StackFrame(f.ip(), f.sp(), md, md == 0 ? null : methodName(md), null));
              }
              return true;
            });
    return frames;
  }

  String methodName(long methodDesc) {
    if (methodDesc == 0) {
      return null;
    }
    String name = methodNames.get(methodDesc);
    if (name == null) {
      name = sos.methodDescName(methodDesc);
      if (name == null) {
        name = "<method 0x" + Long.toHexString(methodDesc) + ">";
      }
      methodNames.put(methodDesc, name);
    }
    return name;
  }

  String frameName(long vtable) {
    if (vtable == 0) {
      return "Frame";
    }
    String name = frameNames.get(vtable);
    if (name == null) {
      name = sos.frameName(vtable);
      if (name == null || name.isEmpty()) {
        name = "Frame";
      }
      frameNames.put(vtable, name);
    }
    return name;
  }

  /** The frame a stack reference came from (SOS_StackSourceIP or SOS_StackSourceFrame). */
  StackFrame frameOf(SosDac.StackRefData ref) {
    if (ref.sourceType() == 0) {
      long md = sos.methodDescFromIp(ref.source());
      return new StackFrame(
          ref.source(), ref.stackPointer(), md, md == 0 ? null : methodName(md), null);
    }
    if (ref.sourceType() == 1) {
      long vtable = reader.readLongOrZero(ref.source());
      long md = sos.methodDescFromFrame(ref.source());
      return new StackFrame(
          0, ref.source(), md, md == 0 ? null : methodName(md), frameName(vtable));
    }
    return null;
  }

  ExceptionInfo exception(long address, int depth) {
    ClrObject obj = reader.objectOnOwner(address);
    // The DAC reads any object as an exception: the type must derive from System.Exception.
    boolean isException = false;
    for (ClrType t = obj.type(); t != null && !isException; t = t.parent()) {
      isException = t.methodTable() == reader.globals().exceptionMt();
    }
    SosDac.ExceptionData d = isException ? sos.exceptionData(address) : null;
    if (d == null) {
      throw new TargetException(
          TargetException.Problem.NOT_AN_OBJECT,
          "0x" + Long.toHexString(address) + " is not an exception: it is a " + obj.type().name());
    }
    String message = d.message() == 0 ? null : reader.readStringOrNull(d.message());
    List<StackFrame> trace = stackTrace(d.stackTrace());
    ExceptionInfo inner = null;
    if (d.innerException() != 0 && depth < 32) {
      inner = exception(d.innerException(), depth + 1);
    }
    return new ExceptionInfo(address, obj.type().name(), message, d.hresult(), trace, inner);
  }

  // The StackTraceElement records of an exception's _stackTrace: a byte[] or, from .NET 9, an
  // object[] whose first element is that byte[]. The byte[] holds a count and a thread, then one
  // {ip, sp, MethodDesc, flags} record of 32 bytes per frame.
  private List<StackFrame> stackTrace(long array) {
    List<StackFrame> frames = new ArrayList<>();
    if (array == 0) {
      return frames;
    }
    SosDac.ObjectData d = sos.objectData(array);
    if (d == null || d.arrayDataPtr() == 0 || d.components() == 0) {
      return frames;
    }
    long data = d.arrayDataPtr();
    long bytes = d.components() * Math.max(1, d.componentSize());
    if (d.elementTypeHandle() == reader.globals().objectMt()) {
      long inner = reader.readLongOrZero(data);
      SosDac.ObjectData b = inner == 0 ? null : sos.objectData(inner);
      if (b == null || b.arrayDataPtr() == 0) {
        return frames;
      }
      data = b.arrayDataPtr();
      bytes = b.components() * Math.max(1, b.componentSize());
    }
    long count = reader.readLongOrZero(data);
    long fit = (bytes - 16) / 32;
    count = Math.min(count, Math.min(fit, MAX_FRAMES));
    for (int i = 0; i < count; i++) {
      long at = data + 16 + 32L * i;
      long ip = reader.readLongOrZero(at);
      long sp = reader.readLongOrZero(at + 8);
      long md = reader.readLongOrZero(at + 16);
      frames.add(new StackFrame(ip, sp, md, methodName(md), null));
    }
    return frames;
  }
}
