package dev.clrscope.dac.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.dac.interop.DacStructs.DacpGcHeapDetails;
import dev.clrscope.dac.interop.DacStructs.DacpGenerationData;
import dev.clrscope.dac.interop.DacStructs.DacpMethodTableData;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every structure {@link DacStructs} declares against the layouts kept in {@code dac-structs.txt}
 * (each field's offset and size as a C compiler lays out the DAC's headers, and the sizes {@code
 * dacprivate.h} asserts), and reads through a layout that check what they read.
 */
class DacStructsTest {
  record Field(String name, int offset, int size) {}

  record Listed(String name, int size, boolean asserted, List<Field> fields) {}

  static Map<String, Listed> listed() throws IOException {
    Map<String, Listed> out = new LinkedHashMap<>();
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(
                DacStructsTest.class.getResourceAsStream("dac-structs.txt"),
                StandardCharsets.UTF_8))) {
      Listed current = null;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        List<String> w = List.of(line.strip().split("\\s+", -1));
        if (line.startsWith("struct ")) {
          current =
              new Listed(
                  w.get(1),
                  Integer.parseInt(w.get(2)),
                  w.size() > 3 && w.get(3).equals("asserted"),
                  new ArrayList<>());
          out.put(current.name(), current);
        } else {
          current
              .fields()
              .add(new Field(w.get(0), Integer.parseInt(w.get(1)), Integer.parseInt(w.get(2))));
        }
      }
    }
    return out;
  }

  @Test
  void everyDeclaredStructureHasTheHeadersLayout() throws Exception {
    Map<String, Listed> list = listed();
    List<String> declared = new ArrayList<>();
    for (Class<?> c : DacStructs.class.getDeclaredClasses()) {
      if (!c.isEnum() || !StructField.class.isAssignableFrom(c)) {
        continue;
      }
      StructLayout<?> layout = (StructLayout<?>) c.getField("LAYOUT").get(null);
      Listed l = list.get(layout.name());
      assertThat(l).as(layout.name() + " is in dac-structs.txt").isNotNull();
      declared.add(l.name());
      assertThat(layout.size()).as(l.name() + "'s size").isEqualTo(l.size());
      List<Field> fields = new ArrayList<>();
      for (Object f : layout.fields()) {
        fields.add(field(layout, f));
      }
      assertThat(fields).as(l.name()).containsExactlyElementsOf(l.fields());
    }
    // Every structure listed is declared, and dacprivate.h asserts the size of most.
    assertThat(declared).containsExactlyInAnyOrderElementsOf(list.keySet());
    assertThat(list.values().stream().filter(Listed::asserted).count()).isGreaterThan(15);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Field field(StructLayout layout, Object f) {
    StructField sf = (StructField) f;
    return new Field(sf.name(), layout.offset((Enum) f), sf.type().size());
  }

  @Test
  void aFieldIsReadAsItsTypeOnly() {
    ByteBuffer b =
        ByteBuffer.allocate(DacpMethodTableData.LAYOUT.size()).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(40, 24).putLong(8, 0x7f00_1234_5678L).putShort(32, (short) 0xfffe);
    Struct<DacpMethodTableData> d = DacpMethodTableData.LAYOUT.view(b, 0);
    assertThat(d.int32(DacpMethodTableData.BaseSize)).isEqualTo(24);
    assertThat(d.address(DacpMethodTableData.Module)).isEqualTo(0x7f00_1234_5678L);
    assertThat(d.uint16(DacpMethodTableData.wNumInterfaces)).isEqualTo(0xfffe);
    assertThatThrownBy(() -> d.int32(DacpMethodTableData.Module))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("DacpMethodTableData.Module is CLRDATA_ADDRESS");
    assertThatThrownBy(() -> d.address(DacpMethodTableData.BaseSize))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void nestedArraysAreReadByIndexWithinTheirBounds() {
    ByteBuffer b =
        ByteBuffer.allocate(DacpGcHeapDetails.LAYOUT.size()).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(72 + 32 * 3, 0xabcL).putLong(208 + 8 * 6, 0xdefL);
    Struct<DacpGcHeapDetails> d = DacpGcHeapDetails.LAYOUT.view(b, 0);
    assertThat(
            d.struct(DacpGcHeapDetails.generation_table, 3, DacpGenerationData.LAYOUT)
                .address(DacpGenerationData.start_segment))
        .isEqualTo(0xabcL);
    assertThat(d.address(DacpGcHeapDetails.finalization_fill_pointers, 6)).isEqualTo(0xdefL);
    assertThatThrownBy(() -> d.address(DacpGcHeapDetails.finalization_fill_pointers, 7))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
