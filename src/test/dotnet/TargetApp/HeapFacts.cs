using System.Runtime.CompilerServices;

namespace TargetApp;

/// <summary>
/// <c>heap-facts N</c>: what the exact heap graph of a core or a paused process is checked against.
/// N <see cref="DuplicateHolder"/>-held strings of one value (N - 1 of them wasted), a
/// <see cref="List{T}"/> of capacity <see cref="OversizedCapacity"/> holding
/// <see cref="OversizedCount"/> items, one <see cref="HeldOnStack"/> held only by a local of a thread
/// sleeping in <see cref="HoldOnStack"/>, and N <see cref="GarbageItem"/> that nothing references,
/// made inside a no-GC region so that no GC collects them before a dump is taken.
/// </summary>
internal static class HeapFacts
{
    /// <summary>
    /// <c>hold-twice N</c>: N <see cref="SharedLeak"/>, each with a payload of 1,000 bytes, held from
    /// two static arrays at once: no one object dominates them, so the top of the dominator tree is
    /// small while their type retains most of the heap.
    /// </summary>
    internal static void HoldTwice(int n)
    {
        var first = new SharedLeak[n];
        var second = new SharedLeak[n];
        for (int i = 0; i < n; i++)
        {
            first[i] = second[i] = new SharedLeak();
        }
        SharedFirst = first;
        SharedSecond = second;
        Program.Emit(w =>
        {
            w.WriteString("event", "hold-twice");
            w.WriteString("type", typeof(SharedLeak).FullName);
            w.WriteNumber("held", n);
        });
    }

    private static SharedLeak[]? SharedFirst;
    private static SharedLeak[]? SharedSecond;

    internal const string DuplicatedValue = "duplicated-heap-value";
    internal const int OversizedCapacity = 1000;
    internal const int OversizedCount = 10;

    private static string[]? Duplicates;
    private static List<string>? Oversized;

    internal static void Make(int n)
    {
        if (Duplicates != null)
        {
            throw new ArgumentException("heap facts are made once per process");
        }
        var duplicates = new string[n];
        for (int i = 0; i < n; i++)
        {
            // A new string each time, of one value.
            duplicates[i] = new string(DuplicatedValue.AsSpan());
        }
        Duplicates = duplicates;
        var oversized = new List<string>(OversizedCapacity);
        for (int i = 0; i < OversizedCount; i++)
        {
            oversized.Add("kept-" + i);
        }
        Oversized = oversized;

        int tid = 0;
        var ready = new ManualResetEventSlim();
        var thread = new Thread(() => HoldOnStack(ready, t => tid = t))
        { IsBackground = true, Name = "heap-held" };
        thread.Start();
        ready.Wait();
        SpinWait.SpinUntil(() => (thread.ThreadState & ThreadState.WaitSleepJoin) != 0);

        // Garbage last, in a region where no GC runs: it is still on the heap when a dump is taken.
        bool noGc = GC.TryStartNoGCRegion(16 * 1024 * 1024);
        MakeGarbage(n);
        Program.Emit(w =>
        {
            w.WriteString("event", "heap-facts");
            w.WriteNumber("duplicates", n);
            w.WriteString("duplicatedValue", DuplicatedValue);
            w.WriteString("duplicatesField", nameof(Duplicates));
            w.WriteString("holderType", typeof(HeapFacts).FullName);
            w.WriteNumber("oversizedCapacity", OversizedCapacity);
            w.WriteNumber("oversizedCount", OversizedCount);
            w.WriteString("oversizedField", nameof(Oversized));
            w.WriteString("stackHeldType", typeof(HeldOnStack).FullName);
            w.WriteNumber("stackTid", tid);
            w.WriteString("stackMethod", "TargetApp.HeapFacts.HoldOnStack");
            w.WriteNumber("garbage", n);
            w.WriteString("garbageType", typeof(GarbageItem).FullName);
            w.WriteBoolean("noGcRegion", noGc);
        });
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void MakeGarbage(int n)
    {
        for (int i = 0; i < n; i++)
        {
            GC.KeepAlive(new GarbageItem(i));
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void HoldOnStack(ManualResetEventSlim ready, Action<int> tid)
    {
        var held = new HeldOnStack(7);
        tid(Profiled.GetTid());
        ready.Set();
        Thread.Sleep(Timeout.Infinite);
        GC.KeepAlive(held);
    }
}

/// <summary>Held only by a local of the thread in <see cref="HeapFacts"/>.</summary>
public sealed class HeldOnStack
{
    public HeldOnStack(long value)
    {
        Value = value;
    }

    public long Value;
}

/// <summary>Made and dropped by <c>heap-facts N</c>: garbage a dump still holds.</summary>
public sealed class GarbageItem
{
    public GarbageItem(long value)
    {
        Value = value;
    }

    public long Value;
}

/// <summary>What <c>hold-twice</c> holds from two places.</summary>
internal sealed class SharedLeak
{
    private readonly byte[] payload = new byte[1000];

    internal int Size => payload.Length;
}
