package dev.clrscope.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JsonTextTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void scalars() {
    assertThat(JsonText.of(null)).isEqualTo("null");
    assertThat(JsonText.of("x")).isEqualTo("\"x\"");
    assertThat(JsonText.of(42)).isEqualTo("42");
    assertThat(JsonText.of(-7L)).isEqualTo("-7");
    assertThat(JsonText.of(1.5)).isEqualTo("1.5");
    assertThat(JsonText.of(2.5f)).isEqualTo("2.5");
    assertThat(JsonText.of(true)).isEqualTo("true");
    assertThat(JsonText.of(false)).isEqualTo("false");
  }

  @Test
  void nonFiniteNumbersBecomeNull() {
    assertThat(JsonText.of(Double.NaN)).isEqualTo("null");
    assertThat(JsonText.of(Double.POSITIVE_INFINITY)).isEqualTo("null");
    assertThat(JsonText.of(Double.NEGATIVE_INFINITY)).isEqualTo("null");
    assertThat(JsonText.of(Float.NaN)).isEqualTo("null");
    assertThat(JsonText.of(Float.POSITIVE_INFINITY)).isEqualTo("null");
    assertThat(JsonText.of(List.of(1.0, Double.NaN))).isEqualTo("[1.0,null]");
  }

  @Test
  void escapesQuotesBackslashesAndControlCharacters() {
    String s = "a\"b\\c\nd\re\tf\u0001g\u001fh\u2028i\u2029j/é";
    String json = JsonText.of(s);
    assertThat(json).isEqualTo("\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u001fh\\u2028i\\u2029j/é\"");
    assertThat(json).doesNotContain("\n", "\r", "\t", "\u0001");
  }

  @Test
  void escapedStringsParseBackToTheOriginal() throws Exception {
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0x80; c++) {
      all.append(c);
    }
    all.append("\u2028\u2029\uD83D\uDE00");
    assertThat(JSON.readValue(JsonText.of(all.toString()), String.class)).isEqualTo(all.toString());
  }

  @Test
  void mapsAndListsNest() throws Exception {
    Map<Object, Object> m = new LinkedHashMap<>();
    m.put("name", "x");
    m.put(7, Arrays.asList(1, null, "two"));
    m.put("inner", Map.of("k", false));
    m.put("id", UUID.fromString("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"));
    String json = JsonText.of(m);
    assertThat(json)
        .isEqualTo(
            "{\"name\":\"x\",\"7\":[1,null,\"two\"],\"inner\":{\"k\":false},"
                + "\"id\":\"e13c0d23-ccbc-4e12-931b-d9cc2eee27e4\"}");
    assertThat(JSON.readTree(json).get("7").get(2).asText()).isEqualTo("two");
    assertThat(JsonText.of(List.of())).isEqualTo("[]");
    assertThat(JsonText.of(Map.of())).isEqualTo("{}");
  }

  @Test
  void appendAddsToAnExistingBuilder() {
    StringBuilder sb = new StringBuilder("x=");
    JsonText.append(sb, List.of("a"));
    assertThat(sb.toString()).isEqualTo("x=[\"a\"]");
  }
}
