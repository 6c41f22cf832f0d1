package dev.clrscope.dac.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.Pointer;
import dev.clrscope.dac.interop.DacInterfaces.ISOSDacInterface;
import dev.clrscope.dac.interop.DacInterfaces.ISOSEnum;
import dev.clrscope.dac.interop.DacInterfaces.ISOSHandleEnum;
import dev.clrscope.dac.interop.DacInterfaces.IUnknown;
import dev.clrscope.dac.interop.DacInterfaces.IXCLRDataTask;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every interface {@link DacInterfaces} declares against the method lists kept in {@code
 * dac-interfaces.txt}, written from the runtime's IDL files: its id, the interface it extends, its
 * methods in order, and so each method's vtable slot.
 */
class DacInterfacesTest {
  /** An interface as the list gives it. */
  record Listed(String name, String iid, String base, List<String> methods) {}

  private static final Pattern GUID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  static Map<String, Listed> listed() throws IOException {
    Map<String, Listed> out = new LinkedHashMap<>();
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(
                DacInterfacesTest.class.getResourceAsStream("dac-interfaces.txt"),
                StandardCharsets.UTF_8))) {
      Listed current = null;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        if (line.startsWith("interface ")) {
          String[] w = line.split("\\s+");
          assertThat(w).as(line).hasSize(5);
          assertThat(w[3]).as(line).isEqualTo(":");
          assertThat(w[2]).as(line).matches(GUID);
          current = new Listed(w[1], w[2], w[4], new ArrayList<>());
          assertThat(out.put(current.name(), current)).as("listed twice: " + line).isNull();
        } else {
          assertThat(line).as("a method line").startsWith("  ");
          assertThat(current).as("a method before any interface: " + line).isNotNull();
          current.methods().add(line.strip());
        }
      }
    }
    return out;
  }

  /** The slot of the list's interface's first own method: IUnknown's three, then its bases'. */
  private static int firstSlot(Map<String, Listed> list, String name) {
    String base = list.get(name).base();
    if (base.equals("IUnknown")) {
      return 3;
    }
    assertThat(list).as(name + "'s base " + base + " is listed").containsKey(base);
    return firstSlot(list, base) + list.get(base).methods().size();
  }

  static List<ComInterface<?>> declared() throws ReflectiveOperationException {
    List<ComInterface<?>> out = new ArrayList<>();
    for (Class<?> c : DacInterfaces.class.getDeclaredClasses()) {
      if (c.isEnum() && ComMethod.class.isAssignableFrom(c) && c != IUnknown.class) {
        out.add((ComInterface<?>) c.getField("ID").get(null));
      }
    }
    return out;
  }

  @Test
  void everyDeclaredInterfaceIsListedMethodForMethodInTheIdlOrder() throws Exception {
    Map<String, Listed> list = listed();
    List<ComInterface<?>> declared = declared();
    assertThat(declared).hasSizeGreaterThanOrEqualTo(16);
    for (ComInterface<?> i : declared) {
      Listed l = list.get(i.name());
      assertThat(l).as(i.name() + " is in dac-interfaces.txt").isNotNull();
      assertThat(i.iid().toString()).as(i.name() + "'s id").isEqualTo(l.iid());
      assertThat(i.base().name()).as(i.name() + "'s base").isEqualTo(l.base());
      List<String> names = i.methods().stream().map(m -> ((ComMethod) m).name()).toList();
      assertThat(names).as(i.name() + "'s methods").containsExactlyElementsOf(l.methods());
      int first = firstSlot(list, i.name());
      for (Object o : i.methods()) {
        ComMethod m = (ComMethod) o;
        assertThat(m.slot()).as(i.name() + "." + m.name()).isEqualTo(first + m.ordinal());
        assertThat(m.declaredBy()).isSameAs(i);
      }
      assertThat(i.slotCount()).isEqualTo(first + l.methods().size());
    }
  }

  @Test
  void theSlotsTheDacIsKnownToAnswerOn() {
    // Slots seen answering in the DAC of .NET 10 (docs/analyze.md): the declarations agree.
    assertThat(IUnknown.QueryInterface.slot()).isZero();
    assertThat(IUnknown.Release.slot()).isEqualTo(2);
    assertThat(ISOSDacInterface.GetThreadStoreData.slot()).isEqualTo(3);
    assertThat(ISOSDacInterface.GetMethodTableData.slot()).isEqualTo(37);
    assertThat(ISOSDacInterface.GetStackReferences.slot()).isEqualTo(79);
    assertThat(ISOSHandleEnum.Next.slot()).isEqualTo(6);
    assertThat(DacInterfaces.IMetaDataImport.GetFieldProps.slot()).isEqualTo(57);
    assertThat(DacInterfaces.ICLRDataTarget.ReadVirtual.slot()).isEqualTo(6);
  }

  @Test
  void theListIsWholeAndItsBasesAreListed() throws IOException {
    Map<String, Listed> list = listed();
    // ISOSDacInterface and its numbered successors, 2 to 16.
    assertThat(list).containsKey("ISOSDacInterface");
    for (int n = 2; n <= 16; n++) {
      assertThat(list).containsKey("ISOSDacInterface" + n);
    }
    for (Listed l : list.values()) {
      assertThat(l.methods()).as(l.name()).isNotEmpty().doesNotHaveDuplicates();
      firstSlot(list, l.name());
    }
  }

  @Test
  void anInterfaceIsCalledOnlyWithItsOwnOrItsBasesMethods() {
    ComObject<ISOSHandleEnum> e = new ComObject<>(new Pointer(8), ISOSHandleEnum.ID);
    assertThat(ISOSHandleEnum.ID.isA(ISOSEnum.ID)).isTrue();
    assertThatThrownBy(() -> e.callInherited(IXCLRDataTask.CreateStackWalk))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CreateStackWalk is not a method of ISOSHandleEnum");
  }
}
