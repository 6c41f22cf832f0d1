package dev.clrscope.dac;

import dev.clrscope.dac.interop.SosDac;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The runtime view's modules, the types they define whose method tables are loaded, and those of
 * them that declare statics; read once, on the owner thread.
 */
final class ModuleReader {
  private final DacSession session;
  private final ClrReader reader;
  private final SosDac sos;
  private List<ClrModule> modules;
  private List<ClrType> loadedTypes;
  private long[] loadedMethodTables;
  private List<ClrType> withStatics;

  ModuleReader(DacSession session, ClrReader reader) {
    this.session = session;
    this.reader = reader;
    this.sos = session.sos();
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
  private long[] loadedMethodTables() {
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
      session.checkStop();
      ClrType t = reader.typeOrNull(mt);
      if (t != null) {
        out.add(t);
      }
    }
    loadedTypes = List.copyOf(out);
    return loadedTypes;
  }

  /** The loaded types that declare statics, found with one DAC call per type (most have none). */
  List<ClrType> typesWithStatics() {
    if (withStatics == null) {
      List<ClrType> out = new ArrayList<>();
      for (long mt : loadedMethodTables()) {
        session.checkStop();
        SosDac.MethodTableFieldData fd = sos.methodTableFieldData(mt);
        if (fd != null && fd.staticFields() > 0) {
          ClrType t = reader.typeOrNull(mt);
          if (t != null) {
            out.add(t);
          }
        }
      }
      withStatics = List.copyOf(out);
    }
    return withStatics;
  }
}
