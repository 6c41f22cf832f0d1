package dev.clrscope.heapwalk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TypeNamesTest {
  @Test
  void theRuntimesEventNamesReadAsDotnetDumpPrintsThemAndArraysStay() {
    assertThat(TypeNames.readable("System.Collections.Generic.List`1[TargetApp.Widget]"))
        .isEqualTo("System.Collections.Generic.List<TargetApp.Widget>");
    assertThat(TypeNames.readable("Entry[System.String,System.Object][]"))
        .isEqualTo("Entry<System.String, System.Object>[]");
    assertThat(
            TypeNames.readable(
                "System.Collections.Generic.List`1[System.Collections.Generic.Dictionary`2[System.String,System.Int32[]]]"))
        .isEqualTo(
            "System.Collections.Generic.List<System.Collections.Generic.Dictionary<System.String, System.Int32[]>>");
    assertThat(TypeNames.readable("System.Int32[,]")).isEqualTo("System.Int32[,]");
    assertThat(TypeNames.readable("TargetApp.Widget[]")).isEqualTo("TargetApp.Widget[]");
    assertThat(TypeNames.readable("System.String")).isEqualTo("System.String");
    assertThat(TypeNames.readable("TargetApp.DumpFacts+<>c")).isEqualTo("TargetApp.DumpFacts+<>c");
    assertThat(
            TypeNames.readable(
                "AsyncStateMachineBox`1[System.Int32,TargetApp.TriageFacts+<OuterAsync>d__30]"))
        .isEqualTo("AsyncStateMachineBox<System.Int32, TargetApp.TriageFacts+<OuterAsync>d__30>");
  }

  @Test
  void eachNestingLevelTakesTheArgumentsItsArityNames() {
    assertThat(
            TypeNames.instantiate(
                "System.Collections.Generic.Dictionary`2+Entry",
                List.of("System.String", "System.Object")))
        .isEqualTo("System.Collections.Generic.Dictionary<System.String, System.Object>+Entry");
    assertThat(
            TypeNames.instantiate(
                "System.Runtime.CompilerServices.AsyncTaskMethodBuilder`1+AsyncStateMachineBox`1",
                List.of("System.Int32", "App.Program+<Main>d__0")))
        .isEqualTo(
            "System.Runtime.CompilerServices.AsyncTaskMethodBuilder<System.Int32>"
                + "+AsyncStateMachineBox<App.Program+<Main>d__0>");
    assertThat(TypeNames.instantiate("App.Program+Node", List.of())).isEqualTo("App.Program+Node");
    assertThat(TypeNames.instantiate("System.Collections.Generic.List`1", List.of()))
        .isEqualTo("System.Collections.Generic.List");
  }

  @Test
  void dotnetGcdumpsSpellingReadsAsClrscopes() {
    assertThat(
            TypeNames.canonical(
                "System.Collections.Generic.Dictionary<System.String,System.Object>"))
        .isEqualTo("System.Collections.Generic.Dictionary<System.String, System.Object>");
    assertThat(
            TypeNames.canonical(
                "Entry<System.Int32,System.Collections.Generic.List<System.String[,]>>[]"))
        .isEqualTo("Entry<System.Int32, System.Collections.Generic.List<System.String[,]>>[]");
    assertThat(TypeNames.canonical("System.String[,]")).isEqualTo("System.String[,]");
    assertThat(TypeNames.canonical("TargetApp.DumpFacts+<>c")).isEqualTo("TargetApp.DumpFacts+<>c");
    String ours = "System.Collections.Generic.Dictionary<System.String, System.Object>";
    assertThat(TypeNames.canonical(ours)).isEqualTo(ours);
  }

  @Test
  void theArgumentsOfEveryLevelInOrder() {
    assertThat(
            TypeNames.arguments(
                "System.Collections.Generic.Dictionary<System.String, System.Collections.Generic.List<System.Int32>>+Entry[]"))
        .containsExactly("System.String", "System.Collections.Generic.List<System.Int32>");
    assertThat(
            TypeNames.arguments(
                "System.Runtime.CompilerServices.AsyncTaskMethodBuilder<System.Int32>"
                    + "+AsyncStateMachineBox<App.Program+<Main>d__0>"))
        .containsExactly("System.Int32", "App.Program+<Main>d__0");
    assertThat(TypeNames.arguments("App.Program+<>c")).isEmpty();
    assertThat(TypeNames.arguments("System.String")).isEmpty();
  }
}
