package dev.clrscope.dac;

import dev.clrscope.dac.TargetException.Problem;
import dev.clrscope.dac.interop.ComObject;
import dev.clrscope.dac.interop.DacInterfaces.IXCLRDataModule;
import dev.clrscope.dac.interop.MetadataImport;
import dev.clrscope.dac.interop.SosDac;
import dev.clrscope.dac.source.TargetMemory;
import dev.clrscope.heapwalk.TypeNames;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one narrow reader under the model: types by method table (cached, with their fields, GC
 * descriptors and element types), objects checked to be objects, the values of fields and elements,
 * strings and words of target memory. {@link ClrType}, {@link ClrObject} and {@link ClrValue} read
 * through it and through nothing else; it stands on the {@link DacSession} alone and knows nothing
 * of the runtime and heap views above it.
 *
 * <p>Methods named "on the owner thread" run there only (the views and the walk call them from
 * their own work on that thread); the others may be called from any thread.
 */
final class ClrReader {
  /** The smallest object the GC makes (x64): header, method table, one pointer of room. */
  static final long MIN_OBJECT_SIZE = 24;

  private final DacSession session;
  private final SosDac sos;
  private final TargetMemory memory;
  private final SosDac.UsefulGlobals globals;
  private final LongMap<ClrType> types = new LongMap<>();
  private final Set<Long> notTypes = new HashSet<>();
  private final Map<Long, MetadataImport> metadata = new HashMap<>();
  private final Set<Long> noMetadata = new HashSet<>();
  private final byte[] word = new byte[8];
  private final ByteBuffer wordView = ByteBuffer.wrap(word).order(ByteOrder.LITTLE_ENDIAN);
  private final MemoryWindow refWindow;

  ClrReader(DacSession session) {
    this.session = session;
    this.sos = session.sos();
    this.memory = session.source();
    this.globals = session.globals();
    this.refWindow = new MemoryWindow(memory, 64 << 10);
  }

  /**
   * A reader of target memory alone, with no DAC behind it, for the tests of what reads through one
   * (an object's references, the types a second walk asks for): its types are those {@link
   * #knowType} gives. Anything that needs the DAC fails with a NullPointerException, never a
   * made-up answer.
   */
  ClrReader(TargetMemory memory) {
    this.session = null;
    this.sos = null;
    this.memory = memory;
    this.globals = null;
    this.refWindow = new MemoryWindow(memory, 64 << 10);
  }

  /** Makes {@code mt} known as {@code type} (null: known to be no method table); for tests. */
  void knowType(long mt, ClrType type) {
    if (type == null) {
      notTypes.add(mt);
    } else {
      types.put(mt, type);
    }
  }

  DacSession session() {
    return session;
  }

  TargetMemory memory() {
    return memory;
  }

  // ---- types -------------------------------------------------------------------------------

  /**
   * The type whose method table is at {@code methodTable}.
   *
   * @throws TargetException {@link Problem#NOT_AN_OBJECT} when it is not a method table
   */
  ClrType type(long methodTable) {
    ClrType t = session.call(() -> typeOrNull(methodTable));
    if (t == null) {
      throw new TargetException(
          Problem.NOT_AN_OBJECT, "0x" + Long.toHexString(methodTable) + " is not a method table");
    }
    return t;
  }

  /** The runtime's common method tables. */
  SosDac.UsefulGlobals globals() {
    return globals;
  }

  /** Every type met so far, in no order: the cache. On the owner thread. */
  void forEachTypeMet(java.util.function.Consumer<ClrType> visitor) {
    types.forEach((mt, t) -> visitor.accept(t));
  }

  /** The type of a method table, or null when it is none. On the owner thread. */
  ClrType typeOrNull(long mt) {
    if (mt == 0 || (mt & 7) != 0) {
      return null;
    }
    ClrType t = types.get(mt);
    if (t != null || notTypes.contains(mt)) {
      return t;
    }
    SosDac.MethodTableData d = sos.methodTableData(mt);
    if (d == null || (d.baseSize() <= 0 && !d.isFree())) {
      notTypes.add(mt);
      return null;
    }
    boolean isString = mt == globals.stringMt();
    boolean isFree = d.isFree() || mt == globals.freeMt();
    String raw = isFree ? "Free" : sos.methodTableName(mt);
    String name =
        raw == null ? "<unknown type 0x" + Long.toHexString(mt) + ">" : DacTypeNames.readable(raw);
    int baseSize = d.baseSize();
    int componentSize = d.componentSize();
    if (isString) {
      // The DAC's base size of String lacks the terminating character the object has.
      baseSize += componentSize;
    }
    if (isFree) {
      // Free space is an array of bytes: 24 bytes of header and length, then its bytes.
      baseSize = (int) MIN_OBJECT_SIZE;
      componentSize = 1;
    }
    t =
        new ClrType(
            this,
            mt,
            name,
            baseSize,
            componentSize,
            d.containsPointers(),
            isFree,
            isString,
            d.module(),
            d.parentMt(),
            d.token());
    types.put(mt, t);
    return t;
  }

  /**
   * A type's GC descriptor (null: no references, or none readable), read once. On the owner thread
   * (the walk's, and {@link #referencesOf}'s).
   */
  GcDesc gcDescOf(ClrType type) {
    if (!type.gcDescLoaded) {
      type.gcDesc = readGcDesc(type.methodTable());
      type.gcDescLoaded = true;
    }
    return type.gcDesc;
  }

  private GcDesc readGcDesc(long mt) {
    byte[] countBytes = new byte[8];
    if (memory.read(mt - 8, countBytes, 0, 8) != 8) {
      return null;
    }
    long count = ByteBuffer.wrap(countBytes).order(ByteOrder.LITTLE_ENDIAN).getLong();
    if (count == 0 || Math.abs(count) > GcDesc.MAX_SERIES) {
      return null;
    }
    int size = GcDesc.byteSize(count);
    byte[] bytes = new byte[size];
    if (memory.read(mt - size, bytes, 0, size) != size) {
      return null;
    }
    return GcDesc.decode(count, bytes);
  }

  List<ClrField> instanceFields(ClrType type) {
    return session.call(
        () -> {
          loadFields(type);
          return type.instanceFields;
        });
  }

  List<ClrField> staticFields(ClrType type) {
    return session.call(
        () -> {
          loadFields(type);
          return type.staticFields;
        });
  }

  private void loadFields(ClrType type) {
    if (type.instanceFields != null) {
      return;
    }
    List<ClrField> instance = new ArrayList<>();
    List<ClrField> statics = new ArrayList<>();
    ClrType parent = type.parentMethodTable() == 0 ? null : typeOrNull(type.parentMethodTable());
    int inherited = 0;
    if (parent != null) {
      loadFields(parent);
      instance.addAll(parent.instanceFields);
      inherited = parent.instanceFields.size();
    }
    SosDac.MethodTableFieldData fd = sos.methodTableFieldData(type.methodTable());
    if (fd != null && fd.firstField() != 0) {
      long next = fd.firstField();
      int total = fd.instanceFields() + fd.staticFields();
      for (int i = inherited; i < total && next != 0; i++) {
        SosDac.FieldDescData f = sos.fieldDescData(next);
        if (f == null) {
          break;
        }
        ClrField field = field(type, next, f);
        (field.kind() == ClrField.Kind.INSTANCE ? instance : statics).add(field);
        next = f.nextField();
      }
    }
    type.staticFields = List.copyOf(statics);
    type.instanceFields = List.copyOf(instance);
  }

  /** The field {@code type} declares at FieldDesc {@code fieldDesc}, named. On the owner thread. */
  ClrField field(ClrType type, long fieldDesc, SosDac.FieldDescData f) {
    ClrField.Kind kind =
        f.isThreadLocal()
            ? ClrField.Kind.THREAD_STATIC
            : f.isStatic() ? ClrField.Kind.STATIC : ClrField.Kind.INSTANCE;
    ElementType e = ElementType.of(f.type());
    return new ClrField(
        fieldName(type.module(), f.token()),
        fieldTypeName(type, e, f),
        e,
        f.offset(),
        kind,
        f.fieldMt(),
        type.methodTable(),
        f.token(),
        fieldDesc);
  }

  private String fieldName(long module, int token) {
    MetadataImport md = metadataOf(module);
    MetadataImport.FieldProps p = md == null ? null : md.fieldProps(token);
    return p != null && !p.name().isEmpty() ? p.name() : String.format("<token 0x%08x>", token);
  }

  /**
   * A field's type's name: a primitive's, its type's when the runtime has its own method table,
   * else the type its signature declares with the declaring type's generic arguments put in (a
   * field of a generic type shared between reference types has a canonical {@code __Canon} type in
   * the runtime), else what the field's type token names.
   */
  private String fieldTypeName(ClrType declaring, ElementType e, SosDac.FieldDescData f) {
    if (e.typeName() != null) {
      return e.typeName();
    }
    if (f.fieldMt() != 0) {
      ClrType t = typeOrNull(f.fieldMt());
      if (t != null && !t.name().contains(CANON)) {
        return t.name();
      }
    }
    String declared = declaredTypeName(declaring, f.token());
    if (declared != null) {
      return declared;
    }
    if (f.fieldModule() != 0 && f.fieldTypeToken() != 0) {
      MetadataImport md = metadataOf(f.fieldModule());
      if (md != null) {
        int table = f.fieldTypeToken() >>> 24;
        String n =
            table == 0x02
                ? md.typeDefName(f.fieldTypeToken())
                : table == 0x01 ? md.typeRefName(f.fieldTypeToken()) : null;
        if (n != null && !n.isEmpty()) {
          return n;
        }
      }
    }
    return e == ElementType.VALUETYPE ? "<struct>" : "System.Object";
  }

  /** The runtime's stand-in for the reference types a shared generic instantiation serves. */
  private static final String CANON = "System.__Canon";

  /** The type a field's signature declares, or null when it cannot be named. */
  private String declaredTypeName(ClrType declaring, int fieldToken) {
    MetadataImport md = metadataOf(declaring.module());
    MetadataImport.FieldProps p = md == null ? null : md.fieldProps(fieldToken);
    if (p == null) {
      return null;
    }
    String name =
        FieldSignature.typeName(
            p.signature(), TypeNames.arguments(declaring.name()), new MetadataNames(md));
    return name == null || name.contains(CANON) ? null : name;
  }

  /** Full type names by token in one module's metadata, enclosing types included. */
  private record MetadataNames(MetadataImport md) implements FieldSignature.Names {
    private static final int MAX_NESTING = 16;

    @Override
    public String typeDef(int token) {
      String name = md.typeDefName(token);
      int enclosing = md.enclosingClass(token);
      for (int depth = 0; name != null && enclosing != 0 && depth < MAX_NESTING; depth++) {
        String outer = md.typeDefName(enclosing);
        name = outer == null ? null : outer + "+" + name;
        enclosing = md.enclosingClass(enclosing);
      }
      return name;
    }

    @Override
    public String typeRef(int token) {
      MetadataImport.TypeRef r = md.typeRef(token);
      String name = r == null ? null : r.name();
      for (int depth = 0; r != null && (r.scope() >>> 24) == 0x01 && depth < MAX_NESTING; depth++) {
        // A nested type's reference is scoped by the reference to the type it is declared in.
        r = md.typeRef(r.scope());
        name = r == null ? null : r.name() + "+" + name;
      }
      return name;
    }

    @Override
    public byte[] typeSpec(int token) {
      return md.typeSpec(token);
    }
  }

  private MetadataImport metadataOf(long module) {
    if (module == 0 || noMetadata.contains(module)) {
      return null;
    }
    MetadataImport md = metadata.get(module);
    if (md == null) {
      ComObject<IXCLRDataModule> m = sos.module(module);
      md = m == null ? null : MetadataImport.of(m);
      if (md == null) {
        noMetadata.add(module);
        return null;
      }
      metadata.put(module, md);
    }
    return md;
  }

  // On the owner thread: an array type's element type, which the DAC says of an instance only.
  private void loadElementType(ClrType type, long arrayAddress) {
    if (type.elementLoaded || !type.isArray()) {
      return;
    }
    SosDac.ObjectData d = sos.objectData(arrayAddress);
    if (d == null) {
      return;
    }
    type.elementLoaded = true;
    type.elementType = ElementType.of(d.elementType());
    type.elementMethodTable = d.elementTypeHandle();
  }

  // ---- objects -----------------------------------------------------------------------------

  /**
   * The object at {@code address}, checked to be one: in a GC segment, with a method table the DAC
   * knows, and accepted by the DAC as an object.
   *
   * @throws TargetException {@link Problem#NOT_AN_OBJECT} with why not
   */
  ClrObject object(long address) {
    return session.call(() -> objectOnOwner(address));
  }

  /** {@link #object} on the owner thread. */
  ClrObject objectOnOwner(long address) {
    String hex = "0x" + Long.toHexString(address);
    if (address == 0 || (address & 7) != 0) {
      throw new TargetException(
          Problem.NOT_AN_OBJECT, hex + " is not an object address (objects are 8-byte aligned)");
    }
    if (segmentOf(address) == null) {
      throw new TargetException(
          Problem.NOT_AN_OBJECT, hex + " is not an object: it is not in the GC heap");
    }
    long mt = readLongOrThrow(address) & ~7L;
    ClrType type = typeOrNull(mt);
    if (type == null) {
      throw new TargetException(
          Problem.NOT_AN_OBJECT,
          hex + " is not an object: 0x" + Long.toHexString(mt) + " there is not a method table");
    }
    if (sos.objectData(address) == null) {
      throw new TargetException(
          Problem.NOT_AN_OBJECT, hex + " is not an object: the DAC does not take it for one");
    }
    long count =
        type.componentSize() == 0 ? 0 : Integer.toUnsignedLong(readIntOnOwner(address + 8));
    return objectOf(address, type, type.instanceSize(count));
  }

  /**
   * A lasting view of an object the caller knows to be one (the walk's); an array's element type is
   * learnt from it the first time one of its type is seen. On the owner thread.
   */
  ClrObject objectOf(long address, ClrType type, long size) {
    if (type.isArray()) {
      loadElementType(type, address);
    }
    return new ClrObject(this, address, type, size);
  }

  /** The segment holding {@code address}, or null when it is not in the GC heap. */
  HeapSegment segmentOf(long address) {
    for (GcHeap h : session.gcHeaps()) {
      for (HeapSegment s : h.segments()) {
        if (s.contains(address)) {
          return s;
        }
      }
    }
    return null;
  }

  /** The text of the string at {@code address}. */
  String readString(long address) {
    return session.call(
        () -> {
          int length = readIntOnOwner(address + 8);
          if (length < 0 || length > (1 << 28)) {
            throw new TargetException(
                Problem.NOT_AN_OBJECT, "0x" + Long.toHexString(address) + " is not a string");
          }
          byte[] chars = new byte[2 * length];
          if (memory.read(address + 12, chars, 0, chars.length) != chars.length) {
            throw unreadable(address + 12);
          }
          return new String(chars, StandardCharsets.UTF_16LE);
        });
  }

  /** The text of the string at {@code address}, or null when it cannot be read. */
  String readStringOrNull(long address) {
    try {
      return readString(address);
    } catch (TargetException e) {
      return null;
    }
  }

  int readInt(long address) {
    return session.call(() -> readIntOnOwner(address));
  }

  private int readIntOnOwner(long address) {
    if (memory.read(address, word, 0, 4) != 4) {
      throw unreadable(address);
    }
    return wordView.getInt(0);
  }

  /** The 4 bytes at {@code address}, or 0 when unreadable. On the owner thread. */
  int readIntOrZero(long address) {
    return memory.read(address, word, 0, 4) == 4 ? wordView.getInt(0) : 0;
  }

  /** The 8 bytes at {@code address} (a pointer). */
  long readPointer(long address) {
    return session.call(() -> readLongOrThrow(address));
  }

  /** The 8 bytes at {@code address}; throws when unreadable. On the owner thread. */
  long readLongOrThrow(long address) {
    if (memory.read(address, word, 0, 8) != 8) {
      throw unreadable(address);
    }
    return wordView.getLong(0);
  }

  /** The 8 bytes at {@code address}, or 0 when unreadable. On the owner thread. */
  long readLongOrZero(long address) {
    if (memory.read(address, word, 0, 8) != 8) {
      return 0;
    }
    return wordView.getLong(0);
  }

  private TargetException unreadable(long address) {
    return new TargetException(
        Problem.UNREADABLE_MEMORY,
        "0x" + Long.toHexString(address) + " is not readable in " + session.source().describe());
  }

  /** A value stored at {@code at} as {@code e} (a struct: of type {@code valueTypeMt}). */
  Value readValue(long at, ElementType e, long valueTypeMt) {
    return session.call(
        () -> {
          if (e.isReference()) {
            return new Value.Reference(readLongOrThrow(at));
          }
          if (e == ElementType.VALUETYPE) {
            ClrType vt = typeOrNull(valueTypeMt);
            if (vt == null) {
              return new Value.Reference(0);
            }
            return new Value.Embedded(new ClrValue(this, at, at, vt));
          }
          int size = Math.max(1, e.size());
          if (memory.read(at, word, 0, size) != size) {
            throw unreadable(at);
          }
          long bits =
              switch (e) {
                case BOOLEAN, U1 -> word[0] & 0xff;
                case I1 -> word[0];
                case CHAR, U2 -> wordView.getShort(0) & 0xffff;
                case I2 -> wordView.getShort(0);
                case I4, R4 -> wordView.getInt(0);
                case U4 -> wordView.getInt(0) & 0xffffffffL;
                default -> wordView.getLong(0);
              };
          return new Value.Primitive(e, bits);
        });
  }

  /**
   * The value a static slot holds for {@code field}: a struct static is boxed, and its slot holds
   * the box. On the owner thread.
   */
  Value slotValue(long slot, ClrField field) {
    if (field.elementType() == ElementType.VALUETYPE) {
      long box = readLongOrThrow(slot);
      ClrType t = box == 0 ? null : typeOrNull(readLongOrThrow(box) & ~7L);
      return t == null
          ? new Value.Reference(0)
          : new Value.Embedded(new ClrValue(this, box + 8, box + 8, t));
    }
    return readValue(slot, field.elementType(), field.fieldTypeMethodTable());
  }

  /** Calls {@code visitor} for each non-null reference {@code object} holds. */
  void referencesOf(ClrObject object, ReferenceVisitor visitor) {
    session.run(
        () -> {
          ClrType type = object.type();
          if (!type.containsPointers()) {
            return;
          }
          GcDesc desc = gcDescOf(type);
          if (desc == null) {
            return;
          }
          long size = object.size();
          long end = object.address() + ((size + 7) & ~7L);
          MemoryWindow window =
              new MemoryWindow(memory, (int) Math.min(1 << 20, Math.max(64, size)));
          desc.forEachSlot(
              size,
              offset -> {
                long target = window.word(object.address() + offset, end);
                if (target != 0) {
                  visitor.reference(target, offset);
                }
              });
        });
  }

  /**
   * The references of the object at {@code address}, from its type's GC descriptor (nothing when it
   * is no object). On the owner thread.
   */
  void forEachReference(long address, ReferenceVisitor visitor) {
    long mt = readLongOrZero(address) & ~7L;
    ClrType type = mt == 0 ? null : typeOrNull(mt);
    if (type == null || !type.containsPointers()) {
      return;
    }
    GcDesc desc = gcDescOf(type);
    if (desc == null) {
      return;
    }
    long count = 0;
    if (type.componentSize() != 0) {
      count = Integer.toUnsignedLong(readIntOrZero(address + 8));
    }
    long size = type.instanceSize(count);
    long end = address + ((size + 7) & ~7L);
    desc.forEachSlot(
        size,
        offset -> {
          long ref = refWindow.word(address + offset, end);
          if (ref != 0) {
            visitor.reference(ref, offset);
          }
        });
  }
}
