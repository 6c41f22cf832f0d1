package dev.clrscope.symbols;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MethodNamesTest {
  @Test
  void typeAndMethodAsTraceEventPrintsThem() {
    assertThat(MethodNames.of("Example.Program", "Main", "void  (class System.String[])", false))
        .isEqualTo("Example.Program.Main");
    assertThat(MethodNames.of("", "JIT_Helper", "", false)).isEqualTo("JIT_Helper");
    assertThat(MethodNames.of(null, "Stub", null, true)).isEqualTo("Stub()");
  }

  @Test
  void genericsReadable() {
    assertThat(
            MethodNames.of(
                "System.Collections.Generic.Dictionary`2[System.__Canon,System.Int32]",
                "TryInsert",
                "",
                false))
        .isEqualTo("System.Collections.Generic.Dictionary<System.__Canon,System.Int32>.TryInsert");
    assertThat(MethodNames.readable("System.Int32[]")).isEqualTo("System.Int32[]");
    assertThat(MethodNames.readable("System.Int32[,]")).isEqualTo("System.Int32[,]");
    assertThat(MethodNames.readable("List`1[System.String[]]")).isEqualTo("List<System.String[]>");
    assertThat(MethodNames.readable("A`1[B`1[C]]")).isEqualTo("A<B<C>>");
  }

  @Test
  void signatureGivesParameterTypes() {
    assertThat(
            MethodNames.of(
                "App.Worker",
                "Run",
                "instance bool  (class System.String,int32,valuetype"
                    + " [System.Runtime]System.Span`1<uint8>,class"
                    + " System.Collections.Generic.Dictionary`2<!0,!1>)",
                true))
        .isEqualTo(
            "App.Worker.Run(System.String,int32,System.Span<uint8>,"
                + "System.Collections.Generic.Dictionary<!0,!1>)");
    assertThat(MethodNames.of("App.Worker", "Run", "void  ()", true)).isEqualTo("App.Worker.Run()");
  }
}
