package dev.clrscope.triage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.triage.TriageTarget.FrameView;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a stack is read: the frames of .NET 10's stacks as the runtime names them (from TriageApp's
 * threads), what each blocked thread waits for, and the user frame that blocks.
 */
class StacksTest {
  private static List<FrameView> frames(String... methods) {
    List<FrameView> out = new ArrayList<>();
    long sp = 0x1000;
    for (String m : methods) {
      out.add(new FrameView(m, null, sp += 0x40, m.startsWith("[")));
    }
    return out;
  }

  @Test
  void genericInstantiationsAreLeftOutOfNames() {
    assertThat(
            Stacks.withoutInstantiation(
                "System.Threading.Tasks.Task`1[[System.__Canon, System.Private.CoreLib]]"
                    + ".GetResultCore"))
        .isEqualTo("System.Threading.Tasks.Task`1.GetResultCore");
    assertThat(
            Stacks.withoutInstantiation(
                "System.Collections.Concurrent.BlockingCollection`1+<GetConsumingEnumerable>d__68"
                    + "[[System.Int32, System.Private.CoreLib]].MoveNext"))
        .isEqualTo(
            "System.Collections.Concurrent.BlockingCollection`1+<GetConsumingEnumerable>d__68.MoveNext");
    assertThat(Stacks.withoutInstantiation("App.Arrays.Of(System.Int32[])"))
        .isEqualTo("App.Arrays.Of(System.Int32[])");
  }

  @Test
  void aTaskWaitBlocksInTheUserFrameThatCallsIt() {
    List<FrameView> f =
        frames(
            "[InlinedCallFrame]",
            "System.Threading.Monitor.Wait",
            "System.Threading.ManualResetEventSlim.Wait",
            "System.Threading.Tasks.Task.SpinThenBlockingWait",
            "System.Threading.Tasks.Task.InternalWaitCore",
            "System.Threading.Tasks.Task.InternalWait",
            "System.Threading.Tasks.Task`1.GetResultCore",
            "TriageApp.SyncOverAsync.HandleRequest",
            "System.Threading.ThreadPoolWorkQueue.Dispatch");
    Stacks.Blocking b = Stacks.blocking(f);
    assertThat(b.kind()).isEqualTo(Stacks.Wait.TASK);
    assertThat(b.frame(f).name()).isEqualTo("TriageApp.SyncOverAsync.HandleRequest");
  }

  @Test
  void enteringALockOrAMonitorIsALockWait() {
    Stacks.Blocking lock =
        Stacks.blocking(
            frames(
                "System.Threading.WaitHandle.WaitOneNoCheck",
                "System.Threading.Lock.TryEnterSlow",
                "System.Threading.Lock.Enter",
                "TriageApp.Deadlock.TransferIn"));
    assertThat(lock.kind()).isEqualTo(Stacks.Wait.LOCK);
    assertThat(lock.lockType()).isTrue();
    Stacks.Blocking monitor =
        Stacks.blocking(
            frames(
                "[InlinedCallFrame]",
                "System.Threading.Monitor.Enter_Slowpath",
                "System.Threading.Monitor.Enter",
                "TriageApp.Deadlock.TransferOut"));
    assertThat(monitor.kind()).isEqualTo(Stacks.Wait.LOCK);
    assertThat(monitor.lockType()).isFalse();
  }

  @Test
  void aThreadInItsOwnCodeOrReadingAFileIsNotBlockedInAWait() {
    assertThat(Stacks.blocking(frames("App.Compute.Loop", "App.Program.Main"))).isNull();
    assertThat(
            Stacks.blocking(
                frames(
                    "[InlinedCallFrame]",
                    "Interop+Sys.Read",
                    "System.ConsolePal.Read",
                    "System.IO.StreamReader.ReadLine",
                    "App.Program.Main")))
        .isNull();
  }
}
