package dev.clrscope.dac;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Field signatures (ECMA-335 II.23.2.4) named with the declaring type's arguments put in. */
class FieldSignatureTest {
  /** TypeDef 2: App.Order; TypeDef 3: Dictionary`2, TypeDef 4: its nested Entry; TypeRef 1. */
  private static final FieldSignature.Names NAMES =
      new FieldSignature.Names() {
        @Override
        public String typeDef(int token) {
          return Map.of(
                  0x0200_0002, "App.Order",
                  0x0200_0003, "System.Collections.Generic.Dictionary`2",
                  0x0200_0004, "System.Collections.Generic.Dictionary`2+Entry")
              .get(token);
        }

        @Override
        public String typeRef(int token) {
          return token == 0x0100_0001 ? "System.Collections.Generic.List`1" : null;
        }

        @Override
        public byte[] typeSpec(int token) {
          // GENERICINST CLASS List`1<string>
          return token == 0x1b00_0001 ? bytes(0x15, 0x12, 0x05, 1, 0x0e) : new byte[0];
        }
      };

  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }

  private static String name(List<String> arguments, int... sig) {
    return FieldSignature.typeName(bytes(sig), arguments, NAMES);
  }

  @Test
  void aSharedGenericsFieldIsNamedWithItsTypesArguments() {
    // List<T>._items: T[]
    assertThat(name(List.of("App.Order"), 0x06, 0x1d, 0x13, 0)).isEqualTo("App.Order[]");
    // Dictionary<TKey,TValue>._entries: Entry<TKey,TValue>[] (the nested type takes both)
    assertThat(
            name(
                List.of("System.String", "App.Order"),
                0x06,
                0x1d,
                0x15,
                0x12,
                (4 << 2),
                2,
                0x13,
                0,
                0x13,
                1))
        .isEqualTo("System.Collections.Generic.Dictionary<System.String, App.Order>+Entry[]");
  }

  @Test
  void primitivesClassesReferencesSpecsAndArrays() {
    assertThat(name(List.of(), 0x06, 0x08)).isEqualTo("System.Int32");
    assertThat(name(List.of(), 0x06, 0x12, (2 << 2))).isEqualTo("App.Order");
    assertThat(name(List.of(), 0x06, 0x15, 0x12, (1 << 2) | 1, 1, 0x12, (2 << 2)))
        .isEqualTo("System.Collections.Generic.List<App.Order>");
    assertThat(name(List.of(), 0x06, 0x12, (1 << 2) | 2))
        .isEqualTo("System.Collections.Generic.List<System.String>");
    // int[,] (rank 2, no sizes, no bounds); a volatile int (modreq)
    assertThat(name(List.of(), 0x06, 0x14, 0x08, 2, 0, 0)).isEqualTo("System.Int32[,]");
    assertThat(name(List.of(), 0x06, 0x1f, (1 << 2) | 1, 0x08)).isEqualTo("System.Int32");
  }

  @Test
  void whatTheArgumentsCannotSayIsNoName() {
    assertThat(name(List.of(), 0x06, 0x13, 0)).isNull();
    assertThat(name(List.of(), 0x06, 0x1e, 0)).isNull();
    assertThat(name(List.of(), 0x07, 0x08)).isNull();
    assertThat(name(List.of(), 0x06, 0x1d)).isNull();
    assertThat(name(List.of(), 0x06, 0x12, (9 << 2))).isNull();
  }
}
