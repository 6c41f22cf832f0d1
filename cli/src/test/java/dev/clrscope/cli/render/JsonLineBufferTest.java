package dev.clrscope.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The bytes are what JsonText writes, encoded as a UTF-8 PrintStream encodes it. */
class JsonLineBufferTest {
  /** What the old path printed: JsonText through a UTF-8 PrintStream. */
  private static String viaPrintStream(Object value) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    out.print(JsonText.of(value));
    out.flush();
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static String direct(Object value) {
    return new JsonLineBuffer().value(value).toString();
  }

  @Test
  void stringsWithEveryKindOfCharacter() {
    List<String> strings =
        List.of(
            "",
            "plain",
            "quote \" backslash \\ slash /",
            "tab\tnew\nline\rreturn\u0001\u001f",
            "é ü ß ñ 中文 ✓",
            "line sep \u2028 para sep \u2029",
            "emoji \uD83D\uDE00 pair",
            "lone high \uD83D end",
            "lone low \uDE00 end",
            "\uD83D");
    for (String s : strings) {
      assertThat(direct(s)).as("%s", s).isEqualTo(viaPrintStream(s));
    }
    Random random = new Random(1);
    for (int round = 0; round < 2000; round++) {
      char[] chars = new char[random.nextInt(20)];
      for (int i = 0; i < chars.length; i++) {
        chars[i] = (char) random.nextInt(0x10000);
      }
      String s = new String(chars);
      assertThat(direct(s)).as("round %d", round).isEqualTo(viaPrintStream(s));
    }
  }

  @Test
  void numbersAndNestedValues() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("long", Long.MIN_VALUE);
    m.put("max", Long.MAX_VALUE);
    m.put("zero", 0L);
    m.put("int", -42);
    m.put("short", (short) 7);
    m.put("big", new BigInteger("18446744073709551615"));
    m.put("double", 3.22E-4);
    m.put("nan", Double.NaN);
    m.put("float", 1.5f);
    m.put("bool", true);
    m.put("null", null);
    m.put("bytes", new byte[] {0, 15, -1});
    m.put("list", List.of(1L, "two", List.of()));
    m.put("map", Map.of("k", "v"));
    for (long v = 1; v > 0 && v < Long.MAX_VALUE / 10; v *= 10) {
      assertThat(direct(v)).isEqualTo(Long.toString(v));
      assertThat(direct(v - 1)).isEqualTo(Long.toString(v - 1));
    }
    assertThat(direct(m))
        .isEqualTo(viaPrintStream(Map.of("bytes", "000fff").size() > 0 ? withHexBytes(m) : m));
  }

  /** The payload's byte arrays as the old path made them plain: lower-case hex text. */
  private static Map<String, Object> withHexBytes(Map<String, Object> m) {
    Map<String, Object> out = new LinkedHashMap<>(m);
    out.put("bytes", "000fff");
    return out;
  }

  @Test
  void addressesAsHexStrings() {
    long[] a = {0, 1, 0xf, 0x10, 0x7f3ad2cd204dL, -1L, Long.MIN_VALUE};
    StringBuilder expected = new StringBuilder();
    new HexAddresses(a).appendJson(expected);
    assertThat(new JsonLineBuffer().hexAddresses(a, a.length).toString())
        .isEqualTo(expected.toString());
  }
}
