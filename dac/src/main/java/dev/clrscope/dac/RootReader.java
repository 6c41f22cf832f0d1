package dev.clrscope.dac;

import dev.clrscope.dac.interop.SosDac;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Modules, loaded types, statics and every kind of root, read on the owner thread. */
final class RootReader {
  private final ClrProcess process;
  private final SosDac sos;
  private final ThreadReader threads;
  private List<ClrModule> modules;
  private List<ClrType> loadedTypes;
  private long[] loadedMethodTables;
  private List<ClrType> withStatics;

  RootReader(ClrProcess process, ThreadReader threads) {
    this.process = process;
    this.sos = process.sos();
    this.threads = threads;
  }

  List<ClrModule> modules() {
    if (modules != null) {
      return modules;
    }
    Set<Long> domains = new LinkedHashSet<>();
    long[] store = sos.appDomainStore();
    if (store != null) {
      for (long d : sos.appDomainList((int) Math.min(store[1], 1024))) {
        if (d != 0) {
          domains.add(d);
        }
      }
      if (store[0] != 0) {
        domains.add(store[0]);
      }
    }
    List<ClrModule> out = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    for (long domain : domains) {
      for (long assembly : sos.assemblyList(domain)) {
        for (long module : sos.assemblyModuleList(assembly)) {
          if (module == 0 || !seen.add(module)) {
            continue;
          }
          SosDac.ModuleData d = sos.moduleData(module);
          String name = d == null ? null : sos.peFileName(d.peAssembly());
          if (name == null || name.isEmpty()) {
            name = sos.peFileName(module);
          }
          if (name == null || name.isEmpty()) {
            name = "<module 0x" + Long.toHexString(module) + ">";
          }
          out.add(
              new ClrModule(
                  module,
                  assembly,
                  name,
                  d == null ? 0 : d.ilBase(),
                  d != null && d.isReflection()));
        }
      }
    }
    modules = List.copyOf(out);
    return modules;
  }

  /** The method tables of every type defined in a loaded module. */
  long[] loadedMethodTables() {
    if (loadedMethodTables == null) {
      List<Long> mts = new ArrayList<>();
      for (ClrModule m : modules()) {
        sos.traverseTypeDefs(m.address(), mts::add);
      }
      loadedMethodTables = mts.stream().mapToLong(Long::longValue).toArray();
    }
    return loadedMethodTables;
  }

  /** Every type defined in a loaded module whose method table is loaded. */
  List<ClrType> loadedTypes() {
    if (loadedTypes != null) {
      return loadedTypes;
    }
    List<ClrType> out = new ArrayList<>();
    for (long mt : loadedMethodTables()) {
      process.checkStop();
      ClrType t = process.typeOrNull(mt);
      if (t != null) {
        out.add(t);
      }
    }
    loadedTypes = List.copyOf(out);
    return loadedTypes;
  }

  // The loaded types that declare statics, found with one DAC call per type (most have none).
  private List<ClrType> typesWithStatics() {
    if (withStatics == null) {
      List<ClrType> out = new ArrayList<>();
      for (long mt : loadedMethodTables()) {
        process.checkStop();
        SosDac.MethodTableFieldData fd = sos.methodTableFieldData(mt);
        if (fd != null && fd.staticFields() > 0) {
          ClrType t = process.typeOrNull(mt);
          if (t != null) {
            out.add(t);
          }
        }
      }
      withStatics = List.copyOf(out);
    }
    return withStatics;
  }

  void handles(RootVisitor visitor) {
    List<SosDac.HandleData> all = new ArrayList<>();
    sos.handles(all::add);
    for (SosDac.HandleData h : all) {
      long object = process.readLongOrZero(h.handle());
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
    for (ClrThread t : threads.threads()) {
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
              threads.frameOf(r),
              null,
              null,
              0,
              (r.flags() & 1) != 0,
              (r.flags() & 2) != 0,
              0));
    }
  }

  /** The finalization queue of every heap. */
  List<FinalizerEntry> finalizerQueue() {
    List<FinalizerEntry> out = new ArrayList<>();
    for (GcHeap h : process.heaps()) {
      long[] fill = sos.finalizationFillPointers(h.address());
      if (fill == null) {
        SosDac.HeapDetails d = sos.heapDetails(h.address());
        fill =
            d == null
                ? null
                : d.finalizationFillPointers().subList(0, 6).stream()
                    .mapToLong(Long::longValue)
                    .toArray();
      }
      if (fill == null || fill.length < 4) {
        continue;
      }
      int readyFrom = fill.length - 3;
      int end = fill.length - 1;
      for (int seg = 0; seg < end; seg++) {
        boolean ready = seg >= readyFrom;
        long from = fill[seg];
        long to = fill[seg + 1];
        if (Long.compareUnsigned(to, from) <= 0 || to - from > (64L << 20)) {
          continue;
        }
        for (long slot = from; Long.compareUnsigned(slot, to) < 0; slot += 8) {
          long object = process.readLongOrZero(slot);
          if (object != 0) {
            out.add(new FinalizerEntry(h.index(), slot, object, ready));
          }
        }
      }
    }
    return out;
  }

  void finalizerRoots(RootVisitor visitor) {
    for (FinalizerEntry e : finalizerQueue()) {
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
    for (ClrType t : typesWithStatics()) {
      for (ClrField f : t.staticFields()) {
        if (f.kind() != ClrField.Kind.STATIC || !holdsObject(f)) {
          continue;
        }
        long slot = process.staticSlot(t, f);
        long object = slot == 0 ? 0 : process.readLongOrZero(slot);
        if (object != 0) {
          visitor.visit(
              new Root(
                  RootKind.STATIC_FIELD, object, slot, 0, null, f, t.name(), 0, false, false, 0));
        }
      }
    }
  }

  void threadStatics(RootVisitor visitor) {
    for (ClrType t : typesWithStatics()) {
      List<ClrField> fields = new ArrayList<>();
      for (ClrField f : t.staticFields()) {
        if (f.kind() == ClrField.Kind.THREAD_STATIC && holdsObject(f)) {
          fields.add(f);
        }
      }
      if (fields.isEmpty()) {
        continue;
      }
      for (ClrThread th : threads.threads()) {
        if (th.isDead() || th.isUnstarted()) {
          continue;
        }
        for (ClrField f : fields) {
          long slot = process.threadStaticSlot(t, f, th);
          long object = slot == 0 ? 0 : process.readLongOrZero(slot);
          if (object != 0) {
            visitor.visit(
                new Root(
                    RootKind.THREAD_STATIC_FIELD,
                    object,
                    slot,
                    th.osId(),
                    null,
                    f,
                    t.name(),
                    0,
                    false,
                    false,
                    0));
          }
        }
      }
    }
  }

  private static boolean holdsObject(ClrField f) {
    // Structs in statics are boxed: their slot holds a reference too.
    return f.isReference() || f.elementType() == ElementType.VALUETYPE;
  }
}
