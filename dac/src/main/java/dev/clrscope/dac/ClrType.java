package dev.clrscope.dac;

import java.util.List;

/**
 * A type of the target's runtime, by its method table. Instances are cached per method table, so
 * two objects of a type share one {@code ClrType} and the heap walk compares them by identity. What
 * takes more calls into the DAC (fields, GC descriptor) is loaded on first use through the {@link
 * ClrReader} that made it; an array's element type is learnt from its first instance read; the rest
 * is fixed at creation.
 */
public final class ClrType {
  private final ClrReader reader;
  private final long methodTable;
  private final String name;
  private final int baseSize;
  private final int componentSize;
  private final boolean containsPointers;
  private final boolean free;
  private final boolean string;
  private final long module;
  private final long parentMethodTable;
  private final int token;

  // Loaded on first use, on the owner thread: the GC descriptor, read by the walk there only.
  GcDesc gcDesc;
  boolean gcDescLoaded;

  // Loaded on first use, on the owner thread; read from any thread once loaded.
  volatile List<ClrField> instanceFields;
  volatile List<ClrField> staticFields;
  volatile ElementType elementType;
  volatile long elementMethodTable;
  volatile boolean elementLoaded;

  ClrType(
      ClrReader reader,
      long methodTable,
      String name,
      int baseSize,
      int componentSize,
      boolean containsPointers,
      boolean free,
      boolean string,
      long module,
      long parentMethodTable,
      int token) {
    this.reader = reader;
    this.methodTable = methodTable;
    this.name = name;
    this.baseSize = baseSize;
    this.componentSize = componentSize;
    this.containsPointers = containsPointers;
    this.free = free;
    this.string = string;
    this.module = module;
    this.parentMethodTable = parentMethodTable;
    this.token = token;
  }

  /** The method table's address. */
  public long methodTable() {
    return methodTable;
  }

  /**
   * The type's name as dotnet-dump prints it: {@code
   * System.Collections.Generic.List<System.String>}, nested types joined by {@code +}, arrays with
   * {@code []}; {@code Free} for free space.
   */
  public String name() {
    return name;
  }

  /**
   * The size of an instance without its elements. For {@code System.String} this includes the
   * terminating character, which the DAC's figure leaves out.
   */
  public int baseSize() {
    return baseSize;
  }

  /** The size of one element of an array or one character of a string, else 0. */
  public int componentSize() {
    return componentSize;
  }

  /** Whether instances may hold references. */
  public boolean containsPointers() {
    return containsPointers;
  }

  /** Whether this is the GC's free-space pseudo type. */
  public boolean isFree() {
    return free;
  }

  /** Whether this is {@code System.String}. */
  public boolean isString() {
    return string;
  }

  /** Whether this is an array type. */
  public boolean isArray() {
    return componentSize != 0 && !string && !free;
  }

  /** The runtime's Module the type is defined in. */
  public long module() {
    return module;
  }

  /** The base type's method table, or 0. */
  public long parentMethodTable() {
    return parentMethodTable;
  }

  /** The type definition's metadata token. */
  public int token() {
    return token;
  }

  /** The base type, or null. */
  public ClrType parent() {
    return parentMethodTable == 0 ? null : reader.type(parentMethodTable);
  }

  /** The instance fields, inherited ones first. */
  public List<ClrField> fields() {
    return reader.instanceFields(this);
  }

  /** The static and thread-static fields this type declares. */
  public List<ClrField> staticFields() {
    return reader.staticFields(this);
  }

  /** The instance field named {@code name} (the most derived one), or null. */
  public ClrField field(String name) {
    List<ClrField> fields = fields();
    for (int i = fields.size() - 1; i >= 0; i--) {
      if (fields.get(i).name().equals(name)) {
        return fields.get(i);
      }
    }
    return null;
  }

  /** The static or thread-static field named {@code name}, or null. */
  public ClrField staticField(String name) {
    for (ClrField f : staticFields()) {
      if (f.name().equals(name)) {
        return f;
      }
    }
    return null;
  }

  /**
   * For arrays: how elements are stored ({@link ElementType#UNKNOWN} until an instance is read: the
   * DAC says it of an instance only).
   */
  public ElementType elementType() {
    ElementType e = elementType;
    return e == null ? ElementType.UNKNOWN : e;
  }

  /** For arrays: the element type, or null when it is not known (see {@link #elementType}). */
  public ClrType elementClrType() {
    long mt = elementMethodTable;
    return mt == 0 ? null : reader.type(mt);
  }

  /**
   * The size of an instance of {@code count} elements (strings: characters) as SOS and ClrMD count
   * it: not rounded up to the heap's 8-byte alignment, but never below the minimum object size.
   */
  public long instanceSize(long count) {
    return Math.max(baseSize + (long) componentSize * count, ClrReader.MIN_OBJECT_SIZE);
  }

  @Override
  public String toString() {
    return name + " (MT 0x" + Long.toHexString(methodTable) + ")";
  }
}
