package dev.clrscope.dac;

import dev.clrscope.dac.interop.SosDac;
import java.util.ArrayList;
import java.util.List;

/**
 * The heap view's roots, read on the owner thread: GC handles of every kind, each thread's stack
 * references, the objects ready for finalization, and the objects static and thread-static fields
 * hold (through the runtime view's statics).
 */
final class RootReader {
  private final SosDac sos;
  private final ClrReader reader;
  private final ClrRuntime runtime;

  RootReader(DacSession session, ClrReader reader, ClrRuntime runtime) {
    this.sos = session.sos();
    this.reader = reader;
    this.runtime = runtime;
  }

  void handles(RootVisitor visitor) {
    List<SosDac.HandleData> all = new ArrayList<>();
    sos.handles(all::add);
    for (SosDac.HandleData h : all) {
      long object = reader.readLongOrZero(h.handle());
      if (object == 0) {
        continue;
      }
      RootKind kind = RootKind.ofHandleType(h.type());
      boolean pinned = kind == RootKind.PINNED_HANDLE || kind == RootKind.ASYNC_PINNED_HANDLE;
      visitor.visit(
          new Root(
              kind,
              object,
              h.handle(),
              0,
              null,
              null,
              null,
              h.secondary(),
              false,
              pinned,
              h.refCount()));
    }
  }

  void stacks(RootVisitor visitor) {
    for (ClrThread t : runtime.threadsOnOwner()) {
      if (t.osId() == 0 || t.isDead()) {
        continue;
      }
      stack(t.osId(), visitor);
    }
  }

  void stack(int osThreadId, RootVisitor visitor) {
    List<SosDac.StackRefData> refs = new ArrayList<>();
    sos.stackReferences(osThreadId, refs::add);
    for (SosDac.StackRefData r : refs) {
      if (r.object() == 0) {
        continue;
      }
      visitor.visit(
          new Root(
              RootKind.STACK,
              r.object(),
              r.address(),
              osThreadId,
              runtime.frameOf(r),
              null,
              null,
              0,
              (r.flags() & 1) != 0,
              (r.flags() & 2) != 0,
              0));
    }
  }

  void finalizerRoots(RootVisitor visitor) {
    for (FinalizerEntry e : runtime.finalizerQueueOnOwner()) {
      if (e.readyForFinalization()) {
        visitor.visit(
            new Root(
                RootKind.FINALIZER_QUEUE,
                e.object(),
                e.slot(),
                0,
                null,
                null,
                null,
                0,
                false,
                false,
                0));
      }
    }
  }

  void statics(RootVisitor visitor) {
    for (ModuleReader.TypeStatics t : runtime.statics()) {
      for (ModuleReader.StaticField f : t.fields()) {
        if (f.kind() == ClrField.Kind.STATIC) {
          visit(visitor, t, f, runtime.staticSlot(t, f), 0);
        }
      }
    }
  }

  void threadStatics(RootVisitor visitor) {
    for (ModuleReader.TypeStatics t : runtime.statics()) {
      List<ModuleReader.StaticField> fields = new ArrayList<>();
      for (ModuleReader.StaticField f : t.fields()) {
        if (f.kind() == ClrField.Kind.THREAD_STATIC) {
          fields.add(f);
        }
      }
      if (fields.isEmpty()) {
        continue;
      }
      for (ClrThread th : runtime.threadsOnOwner()) {
        if (th.isDead() || th.isUnstarted()) {
          continue;
        }
        for (ModuleReader.StaticField f : fields) {
          long slot =
              runtime.threadStaticSlot(
                  t.methodTable(), t.module(), t.token(), f.elementType(), f.offset(), th);
          visit(visitor, t, f, slot, th.osId());
        }
      }
    }
  }

  /**
   * Visits the root a static's slot (0: none) holds, if it holds an object; the field is named then
   * only (the names are read through the DAC and the module's metadata, for the few that hold one).
   */
  private void visit(
      RootVisitor visitor,
      ModuleReader.TypeStatics t,
      ModuleReader.StaticField f,
      long slot,
      int osThreadId) {
    long object = slot == 0 ? 0 : reader.readLongOrZero(slot);
    ClrType type = object == 0 ? null : reader.typeOrNull(t.methodTable());
    SosDac.FieldDescData d = type == null ? null : sos.fieldDescData(f.fieldDesc());
    if (d == null) {
      return;
    }
    visitor.visit(
        new Root(
            f.kind() == ClrField.Kind.STATIC ? RootKind.STATIC_FIELD : RootKind.THREAD_STATIC_FIELD,
            object,
            slot,
            osThreadId,
            null,
            reader.field(type, f.fieldDesc(), d),
            type.name(),
            0,
            false,
            false,
            0));
  }
}
