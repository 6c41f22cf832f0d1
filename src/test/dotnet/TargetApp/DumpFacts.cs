using System.Collections.Concurrent;
using System.Runtime.CompilerServices;

namespace TargetApp;

/// <summary>
/// A heap and threads with known facts for the <c>analyze</c> model to find in a core dump or a
/// paused process (<c>facts N</c>): N <see cref="FactItem"/> with known field values, held only by
/// the static field <see cref="Items"/>; one <see cref="ThreadFact"/> held only by a thread-static
/// field of a thread that is blocked in <see cref="BlockedHere"/> holding a lock; an exception with
/// an inner exception held by the static field <see cref="Stored"/>.
/// </summary>
internal static class DumpFacts
{
    internal const string OuterMessage = "outer fact failure";
    internal const string InnerMessage = "inner fact cause";
    internal const string Label = "facts-label";
    internal const long ThreadMarker = 4242;

    // The roots the tests name: each holds its objects alone.
    private static FactItem[]? Items;
    private static Exception? Stored;
    private static int MadeCount;
    private static string? MadeLabel;

    [ThreadStatic]
    private static ThreadFact? PerThread;

    // Held by the blocked thread for ever, so a lock owner shows in the dump.
    private static readonly object Locked = new();

    // What the analyses read: a queue and a dictionary with known contents, a timer that has not
    // fired (due in an hour), an async method waiting for ever.
    internal const int QueueItems = 5;
    internal const int DictionaryEntries = 4;
    internal const int TimerDueMs = 3_600_000;
    internal const int TimerPeriodMs = 7_200_000;
    private static ConcurrentQueue<string>? Queue;
    private static ConcurrentDictionary<int, string>? Dictionary;
    private static Timer? Ticker;
    private static Task? Pending;
    private static readonly TaskCompletionSource<int> Never = new();

    internal static void Make(int n)
    {
        if (Items != null)
        {
            throw new ArgumentException("facts are made once per process");
        }
        var items = new FactItem[n];
        for (int i = 0; i < n; i++)
        {
            items[i] = new FactItem(i);
        }
        Items = items;
        MadeCount = n;
        MadeLabel = Label;
        Stored = Capture();
        Queue = new ConcurrentQueue<string>();
        for (int i = 0; i < QueueItems; i++)
        {
            Queue.Enqueue("q-" + i);
        }
        Dictionary = new ConcurrentDictionary<int, string>();
        for (int i = 0; i < DictionaryEntries; i++)
        {
            Dictionary[i] = "d-" + i;
        }
        Ticker = new Timer(OnTimer, "timer-state", TimerDueMs, TimerPeriodMs);
        Pending = AwaitForever(7);

        // A hash code in the object's header makes the lock taken on it a sync block (SOS's syncblk).
        int lockedHash = RuntimeHelpers.GetHashCode(Locked);

        int tid = 0;
        int managedId = 0;
        var ready = new ManualResetEventSlim();
        var thread = new Thread(() =>
        {
            tid = Profiled.GetTid();
            managedId = Environment.CurrentManagedThreadId;
            PerThread = new ThreadFact(ThreadMarker);
            GC.KeepAlive(PerThread);
            ready.Set();
            BlockedHere();
        })
        { IsBackground = true, Name = "facts-blocked" };
        thread.Start();
        ready.Wait();
        // Answer only once the thread sleeps, so a dump taken next finds it in BlockedHere.
        SpinWait.SpinUntil(() => (thread.ThreadState & ThreadState.WaitSleepJoin) != 0);

        Exception stored = Stored;
        Program.Emit(w =>
        {
            w.WriteString("event", "facts");
            w.WriteNumber("items", n);
            w.WriteString("itemType", typeof(FactItem).FullName);
            w.WriteString("holderType", typeof(DumpFacts).FullName);
            w.WriteString("staticField", nameof(Items));
            w.WriteString("threadStaticField", nameof(PerThread));
            w.WriteString("threadStaticType", typeof(ThreadFact).FullName);
            w.WriteNumber("threadMarker", ThreadMarker);
            w.WriteNumber("blockedTid", tid);
            w.WriteNumber("blockedManagedId", managedId);
            w.WriteString("blockedMethod", "TargetApp.DumpFacts.BlockedHere");
            w.WriteString("exceptionField", nameof(Stored));
            w.WriteString("exceptionType", stored.GetType().FullName);
            w.WriteString("message", stored.Message);
            w.WriteNumber("hresult", stored.HResult);
            w.WriteString("throwMethod", "TargetApp.DumpFacts.ThrowOuter");
            w.WriteString("innerType", stored.InnerException!.GetType().FullName);
            w.WriteString("innerMessage", stored.InnerException.Message);
            w.WriteNumber("innerHresult", stored.InnerException.HResult);
            w.WriteString("innerThrowMethod", "TargetApp.DumpFacts.ThrowInner");
            w.WriteNumber("lockedHash", lockedHash);
            w.WriteString("queueField", nameof(Queue));
            w.WriteNumber("queueItems", QueueItems);
            w.WriteString("dictionaryField", nameof(Dictionary));
            w.WriteNumber("dictionaryEntries", DictionaryEntries);
            w.WriteNumber("timerDueMs", TimerDueMs);
            w.WriteNumber("timerPeriodMs", TimerPeriodMs);
            w.WriteString("timerCallback", "TargetApp.DumpFacts.OnTimer");
            w.WriteString("timerState", "timer-state");
            w.WriteString("asyncMethod", "TargetApp.DumpFacts.AwaitForever");
            w.WriteString("countField", nameof(MadeCount));
            w.WriteNumber("count", MadeCount);
            w.WriteString("labelField", nameof(MadeLabel));
            w.WriteString("label", MadeLabel);
        });
    }

    private static void OnTimer(object? state) => GC.KeepAlive(state);

    private static readonly ManualResetEventSlim WorkersReleased = new();

    /// <summary>
    /// <c>queue N</c>: every thread-pool worker blocked (at most ProcessorCount of them), then N
    /// work items of <see cref="QueuedWork"/> with states "work-0".. left waiting in the global
    /// queue, so a dump shows them there.
    /// </summary>
    internal static void BlockPoolAndQueue(int n)
    {
        int workers = Environment.ProcessorCount;
        ThreadPool.SetMinThreads(workers, workers);
        ThreadPool.SetMaxThreads(workers, workers);
        var blocked = new CountdownEvent(workers);
        for (int i = 0; i < workers; i++)
        {
            ThreadPool.UnsafeQueueUserWorkItem(_ =>
            {
                blocked.Signal();
                WorkersReleased.Wait();
            }, null);
        }
        blocked.Wait();
        for (int i = 0; i < n; i++)
        {
            ThreadPool.QueueUserWorkItem(QueuedWork, "work-" + i);
        }
        Program.Emit(w =>
        {
            w.WriteString("event", "queue");
            w.WriteNumber("queued", n);
            w.WriteNumber("blockedWorkers", workers);
            w.WriteString("callback", "TargetApp.DumpFacts.QueuedWork");
        });
    }

    private static void QueuedWork(object? state) => GC.KeepAlive(state);

    // Suspended at its first await for ever: its state machine's state is 0.
    private static async Task<int> AwaitForever(int seed)
    {
        int got = await Never.Task;
        return got + seed;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void BlockedHere()
    {
        lock (Locked)
        {
            Thread.Sleep(Timeout.Infinite); // line: blocked-here
        }
    }

    private static Exception Capture()
    {
        try
        {
            ThrowOuter();
        }
        catch (InvalidOperationException e)
        {
            return e;
        }
        throw new InvalidOperationException("unreachable");
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowOuter()
    {
        try
        {
            ThrowInner();
        }
        catch (ArgumentException e)
        {
            throw new InvalidOperationException(OuterMessage, e); // line: throw-outer
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowInner() => throw new ArgumentException(InnerMessage); // line: throw-inner
}

/// <summary>
/// Item I of <c>facts N</c>: every field a function of I, so a reader can check each one. Public
/// fields, not properties, so the field names are the ones written here.
/// </summary>
public sealed class FactItem
{
    public FactItem(int index)
    {
        Index = index;
        Square = (long)index * index;
        Name = "item-" + index;
        Ratio = index / 4.0;
        Even = index % 2 == 0;
        Letter = (char)('a' + index % 26);
        Where = new FactPoint(index, -index);
    }

    public int Index;
    public long Square;
    public string Name;
    public double Ratio;
    public bool Even;
    public char Letter;
    public FactPoint Where;
}

/// <summary>A value type embedded in <see cref="FactItem"/>.</summary>
public struct FactPoint
{
    public FactPoint(int x, int y)
    {
        X = x;
        Y = y;
    }

    public int X;
    public int Y;
}

/// <summary>What the blocked thread of <c>facts N</c> holds in a thread-static field.</summary>
public sealed class ThreadFact
{
    public ThreadFact(long marker)
    {
        Marker = marker;
    }

    public long Marker;
}
