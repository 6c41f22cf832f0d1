package dev.clrscope.dac.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Task state flags in words, as Task.Status derives the status. */
class TaskStatesTest {
  @Test
  void statusFollowsTheFlagsPrecedence() {
    assertThat(TaskStates.status(0)).isEqualTo("Created");
    assertThat(TaskStates.status(0x2000000 | 0x400)).isEqualTo("WaitingForActivation");
    assertThat(TaskStates.status(0x10000)).isEqualTo("WaitingToRun");
    assertThat(TaskStates.status(0x10000 | 0x20000)).isEqualTo("Running");
    assertThat(TaskStates.status(0x10000 | 0x20000 | 0x1000000)).isEqualTo("RanToCompletion");
    assertThat(TaskStates.status(0x1000000 | 0x200000)).isEqualTo("Faulted");
    assertThat(TaskStates.status(0x400000)).isEqualTo("Canceled");
    assertThat(TaskStates.status(0x10000 | 0x800000)).isEqualTo("WaitingForChildrenToComplete");
  }

  @Test
  void everyFlagIsNamedAndUnknownBitsShownInHex() {
    assertThat(TaskStates.flags(0x2000000 | 0x400 | 0x800 | 0x40))
        .containsExactly(
            "RunContinuationsAsynchronously", "PromiseTask", "HiddenState", "WaitingForActivation");
    assertThat(TaskStates.flags(0x80000000)).containsExactly("0x80000000");
  }
}
