using System.Runtime.CompilerServices;

namespace TriageApp;

/// <summary>A resource whose finalizer waits for an event nobody sets.</summary>
internal sealed class StuckResource
{
    internal static readonly ManualResetEventSlim Entered = new();
    internal static readonly ManualResetEventSlim Never = new();
    internal static int FinalizerTid;

    ~StuckResource()
    {
        FinalizerTid = Program.Tid();
        Entered.Set();
        Never.Wait(); // line: stuck-finalizer-waits
    }
}

/// <summary>A resource with a finalizer that would return at once, if it ever ran.</summary>
internal sealed class PendingResource
{
    internal long Handle;

    ~PendingResource()
    {
        Handle = 0;
    }
}

/// <summary>
/// <c>finalizer</c>: the finalizer thread blocked for good in <see cref="StuckResource"/>'s
/// finalizer, and <see cref="Waiting"/> <see cref="PendingResource"/> objects ready for
/// finalization behind it.
/// </summary>
internal static class StuckFinalizer
{
    internal const int Waiting = 1000;

    internal static void Make()
    {
        MakeStuck();
        GC.Collect();
        if (!StuckResource.Entered.Wait(30_000))
        {
            throw new InvalidOperationException("the finalizer never ran");
        }
        MakePending();
        GC.Collect();
        Program.Emit(w =>
        {
            w.WriteString("event", "finalizer");
            w.WriteNumber("finalizerTid", StuckResource.FinalizerTid);
            w.WriteString("blockedMethod", "TriageApp.StuckResource.Finalize");
            w.WriteNumber("waiting", Waiting);
            w.WriteString("waitingType", typeof(PendingResource).FullName);
        });
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void MakeStuck()
    {
        _ = new StuckResource();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void MakePending()
    {
        for (int i = 0; i < Waiting; i++)
        {
            _ = new PendingResource { Handle = i };
        }
    }
}
