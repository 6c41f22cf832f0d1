package dev.clrscope.dac;

import dev.clrscope.dac.interop.SosDac;
import dev.clrscope.dac.source.TargetMemory;
import dev.clrscope.symbols.PdbFormatException;
import dev.clrscope.symbols.TypeDefinitions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The runtime view's modules, the types they define whose method tables are loaded, and those
 * types' statics that can hold an object; read once, on the owner thread.
 */
final class ModuleReader {
  private final DacSession session;
  private final ClrReader reader;
  private final SosDac sos;
  private List<ClrModule> modules;
  private List<ClrType> loadedTypes;
  private long[] loadedMethodTables;
  private List<TypeStatics> statics;
  private long fieldDescSize;
  private FieldDescLayout layout;
  private boolean layoutChecked;
  private final LongMap<SosDac.ModuleData> moduleData = new LongMap<>();

  /** The loaded method tables read from their modules' maps, what their metadata says. */
  private final LongMap<TypeDefFields> typeDefFields = new LongMap<>();

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
          if (d != null) {
            moduleData.put(module, d);
          }
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
        if (!readTypeDefMap(m, mts)) {
          sos.traverseTypeDefs(m.address(), mts::add);
        }
      }
      loadedMethodTables = mts.stream().mapToLong(Long::longValue).toArray();
    }
    return loadedMethodTables;
  }

  /**
   * Adds a module's loaded type-defs' method tables from its TypeDefToMethodTable map read as one
   * block of target memory, as the DAC's traversal gives them (which reads each entry apart, one
   * read of the core through the data target per type-def, thousands in the core library). The
   * runtime allocates a loaded module's map in one block of one entry per type-def row and one for
   * row 0 (unused), its row count from the module's metadata; an entry may carry flags in its low
   * bits. Returns false, having added nothing, for what it cannot read that way: a dynamic module
   * (whose map grows in blocks), metadata or a map not readable, or a map whose first method table
   * is not the type-def of its row in this module. What the metadata says of each type-def's fields
   * is kept for the statics pass.
   */
  private boolean readTypeDefMap(ClrModule m, List<Long> out) {
    SosDac.ModuleData d = moduleData.get(m.address());
    if (d == null || d.isReflection() || d.typeDefMap() == 0) {
      return false;
    }
    TypeDefinitions.FieldCounts counts = fieldCounts(d);
    if (counts == null) {
      return false;
    }
    int rows = counts.statics().length - 1;
    long bytes = 8L * (rows + 1);
    if (bytes > MAX_MAP_BYTES) {
      return false;
    }
    byte[] table = new byte[(int) bytes];
    if (reader.memory().read(d.typeDefMap(), table, 0, table.length) != table.length) {
      return false;
    }
    ByteBuffer entries = ByteBuffer.wrap(table).order(ByteOrder.LITTLE_ENDIAN);
    List<Long> mts = new ArrayList<>();
    List<TypeDefFields> fields = new ArrayList<>();
    boolean checked = false;
    for (int row = 0; row <= rows; row++) {
      long mt = entries.getLong(8 * row) & ~7L;
      if (mt == 0) {
        continue;
      }
      if (!checked) {
        SosDac.MethodTableData t = row == 0 ? null : sos.methodTableData(mt);
        if (t == null || t.module() != m.address() || t.token() != (TYPE_DEF | row)) {
          return false;
        }
        checked = true;
      }
      mts.add(mt);
      fields.add(
          new TypeDefFields(
              m.address(), TYPE_DEF | row, counts.instance()[row], counts.statics()[row]));
    }
    out.addAll(mts);
    for (int i = 0; i < mts.size(); i++) {
      typeDefFields.put(mts.get(i), fields.get(i));
    }
    return true;
  }

  /**
   * The fields a module's type-defs declare (see {@link TypeDefinitions#fieldCounts}), from its
   * metadata in target memory; null when it cannot be read.
   */
  private TypeDefinitions.FieldCounts fieldCounts(SosDac.ModuleData d) {
    long start = d.metadataStart();
    long size = d.metadataSize();
    if (start == 0 || size <= 0) {
      return null;
    }
    TargetMemory memory = reader.memory();
    try {
      return TypeDefinitions.fieldCounts(
          (offset, dst) -> memory.read(start + offset, dst, 0, dst.length) == dst.length, size);
    } catch (IOException | PdbFormatException e) {
      return null;
    }
  }

  /**
   * What a loaded type-def's metadata says of it.
   *
   * @param module its module
   * @param token its type-def token
   * @param instance the instance fields it declares
   * @param statics the statics it declares that the runtime keeps
   */
  private record TypeDefFields(long module, int token, int instance, int statics) {}

  /** A type-def token's table. */
  private static final int TYPE_DEF = 0x0200_0000;

  /** More than the 2^24 rows a metadata table can have: a damaged count. */
  private static final long MAX_MAP_BYTES = 8L << 24;

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

  /**
   * The static and thread-static fields of the loaded types that can hold an object (references and
   * boxed structs), in the order of the types' modules and type-defs and of each type's field
   * descriptors. Only what a root needs before its value is known is read: the field data of the
   * method tables whose type-def declares statics (the metadata says which, where the map was read;
   * else every one's), and their statics' descriptors, which follow the type's own instance fields
   * (counted by the metadata, else by the DAC with its parent's) in one array; names, parents'
   * fields and instance fields are left to the few that hold something.
   */
  List<TypeStatics> statics() {
    if (statics == null) {
      List<TypeStatics> out = new ArrayList<>();
      LongMap<Integer> instanceCounts = new LongMap<>();
      for (long mt : loadedMethodTables()) {
        session.checkStop();
        TypeDefFields known = typeDefFields.get(mt);
        if (known != null && known.statics() == 0) {
          continue;
        }
        SosDac.MethodTableFieldData fd = sos.methodTableFieldData(mt);
        if (fd == null || fd.staticFields() <= 0 || fd.firstField() == 0) {
          continue;
        }
        // The metadata's count of the type's own instance fields finds its statics without its
        // method table's and its parent's data; the statics read there are checked to be its.
        List<StaticField> fields =
            known == null || known.statics() != fd.staticFields()
                ? null
                : decoded(mt, fd.firstField(), known.instance(), fd.staticFields());
        if (fields != null) {
          if (!fields.isEmpty()) {
            out.add(new TypeStatics(mt, known.module(), known.token(), fields));
          }
          continue;
        }
        SosDac.MethodTableData d = sos.methodTableData(mt);
        if (d == null || d.baseSize() <= 0) {
          continue;
        }
        int introduced = fd.instanceFields() - instanceCount(d.parentMt(), instanceCounts);
        fields = staticFields(mt, fd.firstField(), introduced, fd.staticFields());
        if (!fields.isEmpty()) {
          out.add(new TypeStatics(mt, d.module(), d.token(), fields));
        }
      }
      statics = List.copyOf(out);
    }
    return statics;
  }

  /** A method table's instance fields, inherited ones included (0 for none or no type). */
  private int instanceCount(long mt, LongMap<Integer> cache) {
    if (mt == 0) {
      return 0;
    }
    Integer n = cache.get(mt);
    if (n == null) {
      SosDac.MethodTableFieldData fd = sos.methodTableFieldData(mt);
      n = fd == null ? 0 : fd.instanceFields();
      cache.put(mt, n);
    }
    return n;
  }

  /**
   * The statics that can hold an object among a type's {@code count} statics, which follow its
   * {@code introduced} instance fields in its array of field descriptors. The runtime lays a type's
   * field descriptors out in one array (the DAC's next field is the one after), so the first static
   * is found by the descriptor's size, learnt from the first one the DAC reads. The statics'
   * descriptors are read as one block and decoded ({@link FieldDescLayout}); where that cannot be
   * done, the DAC reads each.
   */
  private List<StaticField> staticFields(long mt, long first, int introduced, int count) {
    List<StaticField> decoded = decoded(mt, first, introduced, count);
    if (decoded != null) {
      return decoded;
    }
    if (introduced < 0 || count > MAX_FIELDS || introduced > MAX_FIELDS || fieldDescSize == 0) {
      return List.of();
    }
    long at = first + introduced * fieldDescSize;
    List<StaticField> out = new ArrayList<>();
    for (int i = 0; i < count && at != 0; i++) {
      SosDac.FieldDescData f = sos.fieldDescData(at);
      if (f == null || !f.isStatic()) {
        break;
      }
      StaticField field =
          new StaticField(
              at,
              f.isThreadLocal() ? ClrField.Kind.THREAD_STATIC : ClrField.Kind.STATIC,
              ElementType.of(f.type()),
              f.offset());
      if (field.holdsObject()) {
        out.add(field);
      }
      at = f.nextField();
    }
    return out;
  }

  /**
   * The statics that can hold an object among a type's {@code count}, read as one block and decoded
   * ({@link FieldDescLayout}); null when that cannot be done.
   */
  private List<StaticField> decoded(long mt, long first, int introduced, int count) {
    if (introduced < 0 || count > MAX_FIELDS || introduced > MAX_FIELDS) {
      return null;
    }
    if (fieldDescSize == 0) {
      SosDac.FieldDescData f = sos.fieldDescData(first);
      long size = f == null ? 0 : f.nextField() - first;
      if (size <= 0 || size > MAX_FIELD_DESC_SIZE) {
        return null;
      }
      fieldDescSize = size;
      layout = FieldDescLayout.of(size);
    }
    if (layout == null) {
      return null;
    }
    List<StaticField> decoded =
        layout.statics(reader.memory(), mt, first + introduced * fieldDescSize, count);
    if (decoded != null && !layoutChecked && !decoded.isEmpty()) {
      // Once per session: the layout must read as the DAC does, or the DAC reads them all.
      StaticField f = decoded.get(0);
      SosDac.FieldDescData d = sos.fieldDescData(f.fieldDesc());
      layoutChecked = true;
      if (d == null
          || !d.isStatic()
          || d.isThreadLocal() != (f.kind() == ClrField.Kind.THREAD_STATIC)
          || ElementType.of(d.type()) != f.elementType()
          || d.offset() != f.offset()) {
        layout = null;
        return null;
      }
    }
    if (decoded == null) {
      return null;
    }
    List<StaticField> out = new ArrayList<>();
    for (StaticField f : decoded) {
      if (f.holdsObject()) {
        out.add(f);
      }
    }
    return out;
  }

  /** More fields than a type can have (a field token's row has 24 bits): a damaged count. */
  private static final int MAX_FIELDS = 1 << 24;

  /** Larger than any runtime's FieldDesc: a damaged answer. */
  private static final long MAX_FIELD_DESC_SIZE = 256;

  /**
   * A loaded type's statics that can hold an object.
   *
   * @param methodTable the type's method table
   * @param module the module that defines it
   * @param token its type-def token
   * @param fields its static and thread-static fields that can hold an object
   */
  record TypeStatics(long methodTable, long module, int token, List<StaticField> fields) {}

  /**
   * A static or thread-static field, not yet named.
   *
   * @param fieldDesc the runtime's FieldDesc
   * @param kind static or thread-static
   * @param elementType how its value is stored
   * @param offset its value's offset from its type's static base
   */
  record StaticField(long fieldDesc, ClrField.Kind kind, ElementType elementType, int offset) {
    /** Whether it can hold an object: a reference, or a struct (statics box them). */
    boolean holdsObject() {
      return elementType.isReference() || elementType == ElementType.VALUETYPE;
    }
  }
}
