package dev.clrscope.heapwalk;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TypeNamesTest {
  @Test
  void genericsReadAsDotnetGcdumpPrintsThemAndArraysStay() {
    assertThat(TypeNames.readable("System.Collections.Generic.List`1[TargetApp.Widget]"))
        .isEqualTo("System.Collections.Generic.List<TargetApp.Widget>");
    assertThat(TypeNames.readable("Entry[System.String,System.Object][]"))
        .isEqualTo("Entry<System.String,System.Object>[]");
    assertThat(
            TypeNames.readable(
                "System.Collections.Generic.List`1[System.Collections.Generic.Dictionary`2[System.String,System.Int32[]]]"))
        .isEqualTo(
            "System.Collections.Generic.List<System.Collections.Generic.Dictionary<System.String,System.Int32[]>>");
    assertThat(TypeNames.readable("System.Int32[,]")).isEqualTo("System.Int32[,]");
    assertThat(TypeNames.readable("TargetApp.Widget[]")).isEqualTo("TargetApp.Widget[]");
    assertThat(TypeNames.readable("System.String")).isEqualTo("System.String");
  }
}
