package dev.clrscope.dac;

import dev.clrscope.heapwalk.TypeNames;
import java.util.ArrayList;
import java.util.List;

/**
 * The type a field is declared with, read from its metadata signature (ECMA-335 II.23.2.4: {@code
 * FIELD}, custom modifiers, then the type) and named in clrscope's spelling. A field of a generic
 * type shared between reference types has, in the runtime, the canonical type ({@code
 * System.__Canon[]} for {@code List<T>._items}); its signature says {@code T[]}, and the type's own
 * arguments say what {@code T} is, as SOS and ClrMD name it.
 */
final class FieldSignature {
  /** Names by metadata token in the field's module. */
  interface Names {
    /**
     * A type definition's full name, each enclosing type before a {@code +}, arities kept ({@code
     * System.Collections.Generic.Dictionary`2+Entry}); null when unknown.
     */
    String typeDef(int token);

    /** A type reference's full name, as {@link #typeDef}; null when unknown. */
    String typeRef(int token);

    /** A type specification's signature, empty when unknown. */
    byte[] typeSpec(int token);
  }

  private static final int FIELD = 0x06;
  private static final int MAX_DEPTH = 32;

  private final byte[] sig;
  private final List<String> typeArguments;
  private final Names names;
  private int at;

  private FieldSignature(byte[] sig, List<String> typeArguments, Names names) {
    this.sig = sig;
    this.typeArguments = typeArguments;
    this.names = names;
  }

  /**
   * The declared type of a field, or null when the signature cannot be read or names what the
   * arguments cannot say (a method's type parameter, a function pointer).
   *
   * @param typeArguments the generic arguments of the type that declares the field, every nesting
   *     level's in order ({@link TypeNames#arguments})
   */
  static String typeName(byte[] signature, List<String> typeArguments, Names names) {
    if (signature == null || signature.length < 2 || (signature[0] & 0x0f) != FIELD) {
      return null;
    }
    try {
      FieldSignature s = new FieldSignature(signature, typeArguments, names);
      s.at = 1;
      return s.type(0);
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      return null;
    }
  }

  private String type(int depth) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException("too deep");
    }
    int code = sig[at++] & 0xff;
    ElementType e = ElementType.of(code);
    if (e.typeName() != null) {
      return e.typeName();
    }
    return switch (code) {
      case 0x1f, 0x20 -> {
        // A custom modifier (volatile...): its type, then the type it modifies.
        typeDefOrRef();
        yield type(depth + 1);
      }
      case 0x45 -> type(depth + 1); // pinned
      case 0x16 -> "System.TypedReference";
      case 0x11, 0x12 -> TypeNames.instantiate(typeDefOrRef(), List.of());
      case 0x0f -> type(depth + 1) + "*";
      case 0x10 -> type(depth + 1) + "&";
      case 0x1d -> type(depth + 1) + "[]";
      case 0x14 -> {
        String element = type(depth + 1);
        int rank = compressed();
        int sizes = compressed();
        for (int i = 0; i < sizes; i++) {
          compressed();
        }
        int bounds = compressed();
        for (int i = 0; i < bounds; i++) {
          compressed();
        }
        yield element + "[" + ",".repeat(Math.max(0, rank - 1)) + "]";
      }
      case 0x15 -> {
        int kind = sig[at++] & 0xff;
        if (kind != 0x11 && kind != 0x12) {
          throw new IllegalArgumentException("a generic instance of no class");
        }
        String definition = typeDefOrRef();
        int count = compressed();
        List<String> arguments = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
          arguments.add(type(depth + 1));
        }
        yield TypeNames.instantiate(definition, arguments);
      }
      case 0x13 -> {
        int index = compressed();
        if (index >= typeArguments.size()) {
          throw new IllegalArgumentException("no argument " + index);
        }
        yield typeArguments.get(index);
      }
      default -> throw new IllegalArgumentException("element type 0x" + Integer.toHexString(code));
    };
  }

  /** A TypeDefOrRefOrSpecEncoded token, named (a specification through its own signature). */
  private String typeDefOrRef() {
    int coded = compressed();
    int row = coded >>> 2;
    String name =
        switch (coded & 3) {
          case 0 -> names.typeDef(0x0200_0000 | row);
          case 1 -> names.typeRef(0x0100_0000 | row);
          case 2 -> {
            byte[] spec = names.typeSpec(0x1b00_0000 | row);
            FieldSignature inner = new FieldSignature(spec, typeArguments, names);
            yield inner.type(1);
          }
          default -> null;
        };
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("no name for a token");
    }
    return name;
  }

  /** An unsigned compressed integer (II.23.2). */
  private int compressed() {
    int b = sig[at++] & 0xff;
    if ((b & 0x80) == 0) {
      return b;
    }
    if ((b & 0xc0) == 0x80) {
      return ((b & 0x3f) << 8) | (sig[at++] & 0xff);
    }
    if ((b & 0xe0) == 0xc0) {
      int v = (b & 0x1f) << 24;
      v |= (sig[at++] & 0xff) << 16;
      v |= (sig[at++] & 0xff) << 8;
      return v | (sig[at++] & 0xff);
    }
    throw new IllegalArgumentException("bad compressed integer");
  }
}
