using System.Runtime.CompilerServices;

namespace TargetApp;

/// <summary>
/// <c>lock-waiters N</c>: a thread holds a lock (a <c>lock</c> on an object whose hash code was
/// taken first, so the lock lives in a sync block) for good, and N threads wait to enter it, for
/// <c>syncblk</c>'s waiter count on every runtime. Once per process.
/// </summary>
internal static class LockWaiters
{
    private static readonly object Contended = new();
    private static int made;

    internal static void Make(int waiters)
    {
        if (Interlocked.Exchange(ref made, 1) != 0)
        {
            throw new ArgumentException("lock waiters are made once per process");
        }
        _ = Contended.GetHashCode();
        int holderTid = 0;
        var held = new ManualResetEventSlim();
        new Thread(() =>
        {
            holderTid = Profiled.GetTid();
            Hold(held);
        })
        { IsBackground = true, Name = "lock-holder" }.Start();
        held.Wait();
        var threads = new List<Thread>();
        for (int i = 0; i < waiters; i++)
        {
            var t = new Thread(WaitToEnter) { IsBackground = true, Name = "lock-waiter-" + i };
            t.Start();
            threads.Add(t);
        }
        foreach (var t in threads)
        {
            if (!SpinWait.SpinUntil(() => (t.ThreadState & ThreadState.WaitSleepJoin) != 0, 30_000))
            {
                throw new InvalidOperationException(t.Name + " did not block");
            }
        }
        // Past their spinning: each registered as a waiter of the lock.
        Thread.Sleep(200);
        Program.Emit(w =>
        {
            w.WriteString("event", "lock-waiters");
            w.WriteNumber("holderTid", holderTid);
            w.WriteNumber("waiters", waiters);
            w.WriteString("lockType", "System.Object");
            w.WriteString("waitMethod", "TargetApp.LockWaiters.WaitToEnter");
        });
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Hold(ManualResetEventSlim held)
    {
        lock (Contended)
        {
            held.Set();
            Thread.Sleep(Timeout.Infinite);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WaitToEnter()
    {
        lock (Contended)
        {
        }
    }
}
