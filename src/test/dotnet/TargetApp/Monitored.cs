using System.Runtime.CompilerServices;

namespace TargetApp;

/// <summary>
/// The commands whose exceptions, lock contention and waits the monitors are checked against:
/// each happens exactly N times, from a method the tests name, and nothing else of its kind
/// happens meanwhile (the threads coordinate by spinning on volatile flags, not by waiting, so the
/// coordination adds no contention or wait events of its own).
/// </summary>
internal static class Monitored
{
    /// <summary>The message of every <see cref="WidgetFailure"/> that <c>fail N</c> throws.</summary>
    internal const string FailureMessage = "widget failure on request";

    /// <summary>How long the other thread keeps the lock once the waiter is blocked on it.</summary>
    internal const int HoldMs = 30;

    /// <summary>How long after the waiter blocked the wait handle is set.</summary>
    internal const int SignalAfterMs = 40;

    private static readonly object MonitorLock = new();
#if NET9_0_OR_GREATER
    private static readonly Lock ThreadingLock = new();
#endif

    /// <summary>Throws and catches N <see cref="WidgetFailure"/>, each from <see cref="ThrowWidgetFailure"/>.</summary>
    internal static void Fail(int n)
    {
        int caught = 0;
        for (int i = 0; i < n; i++)
        {
            try
            {
                ThrowWidgetFailure(i); // line: fail-calls-throw
            }
            catch (WidgetFailure)
            {
                caught++;
            }
        }
        Program.Emit(w =>
        {
            w.WriteString("event", "fail");
            w.WriteString("type", typeof(WidgetFailure).FullName);
            w.WriteString("message", FailureMessage);
            w.WriteString("method", "TargetApp.Monitored.ThrowWidgetFailure");
            w.WriteString("catcher", "TargetApp.Monitored.Fail");
            w.WriteNumber("thrown", caught);
        });
    }

    /// <summary>The message of the <see cref="WidgetFailure"/> that <c>crash</c> leaves unhandled.</summary>
    internal const string CrashMessage = "unhandled widget failure";

    /// <summary>How long the unhandled-exception handler of <c>crash</c> waits before the process dies.</summary>
    internal const int CrashFlushMs = 500;

    /// <summary>
    /// Says what it is about to throw, then throws a <see cref="WidgetFailure"/> from
    /// <see cref="ThrowUnhandled"/> that nothing catches: the process dies of it.
    /// </summary>
    internal static void Crash()
    {
        Program.Emit(w =>
        {
            w.WriteString("event", "crash");
            w.WriteString("type", typeof(WidgetFailure).FullName);
            w.WriteString("message", CrashMessage);
            w.WriteString("method", "TargetApp.Monitored.ThrowUnhandled");
        });
        // The runtime aborts the process without flushing its EventPipe buffers, so the events of
        // its last ~0.1 s would never reach a session. A handler that takes a while (as one that
        // logs the crash does) lets the runtime's flush (every 100 ms) send them first.
        AppDomain.CurrentDomain.UnhandledException += (_, _) => Thread.Sleep(CrashFlushMs);
        ThrowUnhandled();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowUnhandled()
    {
        throw new WidgetFailure(CrashMessage, -1); // line: throw-unhandled
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowWidgetFailure(int i)
    {
        throw new WidgetFailure(FailureMessage, i); // line: throw-widget-failure
    }

    /// <summary>
    /// N times: another thread takes the lock (a Monitor, or a System.Threading.Lock), this thread
    /// tries to enter it in <see cref="EnterContendedMonitor"/> or <see cref="EnterContendedLock"/>,
    /// and the holder lets go <see cref="HoldMs"/> ms after it saw this thread block.
    /// </summary>
    internal static void Contend(string kind, int n)
    {
        if (kind != "monitor" && kind != "lock")
        {
            throw new ArgumentException($"contend takes monitor or lock, not {kind}");
        }
#if !NET9_0_OR_GREATER
        if (kind == "lock")
        {
            throw new ArgumentException("contend lock needs System.Threading.Lock, .NET 9 or later");
        }
#endif
        Thread waiter = Thread.CurrentThread;
        int holderId = 0;
        var holder = new Thread(() =>
        {
            holderId = Environment.CurrentManagedThreadId;
            for (int i = 0; i < n; i++)
            {
                while (Volatile.Read(ref round) != i * 2 + 1)
                {
                    Thread.Yield();
                }
                if (kind == "monitor")
                {
                    lock (MonitorLock)
                    {
                        HoldUntilBlocked(waiter, i);
                    }
                }
#if NET9_0_OR_GREATER
                else
                {
                    lock (ThreadingLock)
                    {
                        HoldUntilBlocked(waiter, i);
                    }
                }
#endif
            }
        })
        {
            IsBackground = true,
            Name = "lock-holder",
        };
        round = 0;
        holder.Start();
        for (int i = 0; i < n; i++)
        {
            // Round 2i+1: the holder takes the lock; 2i+2: it holds it, enter now.
            Volatile.Write(ref round, i * 2 + 1);
            while (Volatile.Read(ref round) != i * 2 + 2)
            {
                Thread.Yield();
            }
            if (kind == "monitor")
            {
                EnterContendedMonitor();
            }
#if NET9_0_OR_GREATER
            else
            {
                EnterContendedLock();
            }
#endif
        }
        holder.Join();
        Program.Emit(w =>
        {
            w.WriteString("event", "contend");
            w.WriteString("kind", kind);
            w.WriteNumber("contended", n);
            w.WriteString("method", kind == "monitor" ? "TargetApp.Monitored.EnterContendedMonitor" : "TargetApp.Monitored.EnterContendedLock");
            w.WriteNumber("holdMs", HoldMs);
            w.WriteNumber("holderManagedThreadId", holderId);
            w.WriteNumber("waiterManagedThreadId", Environment.CurrentManagedThreadId);
        });
    }

    private static int round;

    private static void HoldUntilBlocked(Thread waiter, int i)
    {
        Volatile.Write(ref round, i * 2 + 2);
        AwaitBlocked(waiter);
        Thread.Sleep(HoldMs);
    }

    /// <summary>
    /// Spins until <paramref name="thread"/> is blocked, so the time measured from there is all
    /// time it spent blocked (the runtime's start event comes before the thread blocks).
    /// </summary>
    private static void AwaitBlocked(Thread thread)
    {
        while ((thread.ThreadState & ThreadState.WaitSleepJoin) == 0)
        {
            Thread.Yield();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void EnterContendedMonitor()
    {
        lock (MonitorLock) // line: contended-monitor
        {
            Thread.MemoryBarrier();
        }
    }

#if NET9_0_OR_GREATER
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void EnterContendedLock()
    {
        lock (ThreadingLock) // line: contended-lock
        {
            Thread.MemoryBarrier();
        }
    }
#endif

    /// <summary>
    /// N times: waits in <see cref="WaitForSignal"/> on an event another thread sets
    /// <see cref="SignalAfterMs"/> ms after it saw this thread block.
    /// </summary>
    internal static void Wait(int n)
    {
        Thread waiter = Thread.CurrentThread;
        using var signal = new AutoResetEvent(false);
        var setter = new Thread(() =>
        {
            for (int i = 0; i < n; i++)
            {
                while (Volatile.Read(ref round) != i + 1)
                {
                    Thread.Yield();
                }
                AwaitBlocked(waiter);
                Thread.Sleep(SignalAfterMs);
                signal.Set();
            }
        })
        {
            IsBackground = true,
            Name = "wait-setter",
        };
        round = 0;
        setter.Start();
        for (int i = 0; i < n; i++)
        {
            Volatile.Write(ref round, i + 1);
            WaitForSignal(signal);
        }
        setter.Join();
        Program.Emit(w =>
        {
            w.WriteString("event", "wait");
            w.WriteNumber("waited", n);
            w.WriteString("method", "TargetApp.Monitored.WaitForSignal");
            w.WriteNumber("signalAfterMs", SignalAfterMs);
        });
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WaitForSignal(WaitHandle handle)
    {
        handle.WaitOne(); // line: wait-for-signal
    }
}

/// <summary>The exception type <c>fail N</c> throws, so the tests can tell it from any other.</summary>
public sealed class WidgetFailure : Exception
{
    public WidgetFailure(string message, int index)
        : base(message)
    {
        Index = index;
    }

    public int Index { get; }
}
