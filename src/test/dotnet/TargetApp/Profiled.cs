using System.Runtime.CompilerServices;

namespace TargetApp;

/// <summary>
/// The commands the profilers are checked against: CPU burnt in one known method on one known
/// thread (<c>spin MS</c>), and a known type allocated in a known method (<c>allocate N L</c>).
/// </summary>
internal static class Profiled
{
    private static long sink;

    /// <summary>The calling thread's OS thread id: /proc/thread-self links to /proc/PID/task/TID.</summary>
    internal static int GetTid()
    {
        string target = Directory.ResolveLinkTarget("/proc/thread-self", false)?.FullName ?? "";
        return int.Parse(Path.GetFileName(target), System.Globalization.CultureInfo.InvariantCulture);
    }

    /// <summary>
    /// Burns CPU for MS milliseconds in <see cref="BurnCpu"/> on a new thread; answers with that
    /// thread's OS thread id when it is done.
    /// </summary>
    internal static void Spin(int ms)
    {
        int tid = 0;
        var t = new Thread(() =>
        {
            tid = GetTid();
            sink += BurnCpu(ms);
        });
        t.Start();
        t.Join();
        Program.Emit(w =>
        {
            w.WriteString("event", "spin");
            w.WriteNumber("tid", tid);
            w.WriteString("method", "TargetApp.Profiled.BurnCpu");
            w.WriteNumber("ms", ms);
        });
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static long BurnCpu(int ms)
    {
        long end = Environment.TickCount64 + ms;
        long x = 1;
        while (Environment.TickCount64 < end) // line: burn-loop
        {
            for (int i = 0; i < 100_000; i++)
            {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        } // line: burn-loop-end
        return x;
    }

    /// <summary>
    /// THREADS threads, each DEPTH frames deep in <see cref="Descend"/>, sleeping MS milliseconds
    /// at the bottom: thread-time samples with deep stacks at no CPU cost (the symbol benchmark's
    /// input, bench/report.sh).
    /// </summary>
    internal static void Deep(int threads, int depth, int ms)
    {
        var all = new List<Thread>();
        for (int i = 0; i < threads; i++)
        {
            var t = new Thread(() => sink += Descend(depth, ms));
            t.Start();
            all.Add(t);
        }
        foreach (Thread t in all)
        {
            t.Join();
        }
        Program.Emit(w =>
        {
            w.WriteString("event", "deep");
            w.WriteNumber("threads", threads);
            w.WriteNumber("depth", depth);
            w.WriteNumber("ms", ms);
        });
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static long Descend(int depth, int ms)
    {
        if (depth <= 1)
        {
            Thread.Sleep(ms);
            return 1;
        }
        return Descend(depth - 1, ms) + 1;
    }

    /// <summary>
    /// Allocates N <see cref="ProfiledWidget"/> objects in <see cref="MakeWidgets"/> and L large arrays
    /// (<c>byte[100000]</c>, on the large object heap) in <see cref="MakeLargeArrays"/>, keeping
    /// none of them.
    /// </summary>
    internal static void Allocate(int n, int large)
    {
        long before = GC.GetTotalAllocatedBytes(precise: true);
        sink += MakeWidgets(n);
        sink += MakeLargeArrays(large);
        long allocated = GC.GetTotalAllocatedBytes(precise: true) - before;
        Program.Emit(w =>
        {
            w.WriteString("event", "allocate");
            w.WriteString("type", "TargetApp.ProfiledWidget");
            w.WriteString("method", "TargetApp.Profiled.MakeWidgets");
            w.WriteString("largeMethod", "TargetApp.Profiled.MakeLargeArrays");
            w.WriteNumber("widgets", n);
            w.WriteNumber("large", large);
            w.WriteNumber("allocatedBytes", allocated);
        });
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static long MakeWidgets(int n)
    {
        long s = 0;
        for (int i = 0; i < n; i++)
        {
            var w = new ProfiledWidget(i); // line: make-widget
            s += w.Sum;
        }
        return s;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static long MakeLargeArrays(int n)
    {
        long s = 0;
        for (int i = 0; i < n; i++)
        {
            byte[] a = new byte[100_000]; // line: make-large-array
            s += a.Length;
        }
        return s;
    }
}

/// <summary>What <c>allocate</c> allocates in <c>Profiled.MakeWidgets</c>: 16 longs, about 144 bytes an object.</summary>
internal sealed class ProfiledWidget
{
    internal readonly long A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15;

    internal ProfiledWidget(long seed)
    {
        A0 = seed; A1 = seed + 1; A2 = seed + 2; A3 = seed + 3; A4 = seed + 4; A5 = seed + 5;
        A6 = seed + 6; A7 = seed + 7; A8 = seed + 8; A9 = seed + 9; A10 = seed + 10;
        A11 = seed + 11; A12 = seed + 12; A13 = seed + 13; A14 = seed + 14; A15 = seed + 15;
    }

    internal long Sum => A0 + A1 + A2 + A3 + A4 + A5 + A6 + A7 + A8 + A9 + A10 + A11 + A12 + A13 + A14 + A15;
}
