package dev.clrscope.dac.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The async method a compiler-made state machine type stands for. */
class AsyncStateMachinesTest {
  @Test
  void theMethodIsTheStateMachinesNameWithinItsType() {
    assertThat(name("TargetApp.DumpFacts+<AwaitForever>d__21"))
        .isEqualTo("TargetApp.DumpFacts.AwaitForever");
    assertThat(name("App.Outer+Inner+<Run>d__0")).isEqualTo("App.Outer+Inner.Run");
    assertThat(name("App.NotAStateMachine")).isEqualTo("App.NotAStateMachine");
  }

  private static String name(String typeName) {
    return AsyncStateMachines.methodOf(typeName);
  }
}
