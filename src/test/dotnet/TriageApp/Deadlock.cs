using System.Runtime.CompilerServices;

namespace TriageApp;

/// <summary>The ledger's lock: a Monitor (a lock statement on this object).</summary>
internal sealed class Ledger
{
    internal long Balance;
}

/// <summary>
/// <c>deadlock</c>: two threads that wait for each other for good. <c>transfer-in</c> holds the
/// Monitor of a <see cref="Ledger"/> and waits to enter a <see cref="System.Threading.Lock"/>;
/// <c>transfer-out</c> holds that Lock and waits for the Ledger's Monitor. .NET 8 has no
/// <see cref="System.Threading.Lock"/>: there the journal is a plain object's Monitor.
/// </summary>
internal static class Deadlock
{
    private static readonly Ledger Books = new();
#if NET9_0_OR_GREATER
    private static readonly Lock Journal = new();
#else
    private static readonly object Journal = new();
#endif
    private static readonly Barrier BothHold = new(2);

    internal static void Make()
    {
        int inTid = 0;
        int outTid = 0;
        var transferIn = new Thread(() =>
        {
            inTid = Program.Tid();
            TransferIn();
        })
        { IsBackground = true, Name = "transfer-in" };
        var transferOut = new Thread(() =>
        {
            outTid = Program.Tid();
            TransferOut();
        })
        { IsBackground = true, Name = "transfer-out" };
        transferIn.Start();
        transferOut.Start();
        Program.WaitBlocked(transferIn);
        Program.WaitBlocked(transferOut);
        // Both blocked after the barrier: each in its second lock.
        Thread.Sleep(200);
        Program.Emit(w =>
        {
            w.WriteString("event", "deadlock");
            w.WriteString("inThread", transferIn.Name);
            w.WriteNumber("inTid", inTid);
            w.WriteNumber("inManagedId", transferIn.ManagedThreadId);
            w.WriteString("inMethod", "TriageApp.Deadlock.TransferIn");
            w.WriteString("outThread", transferOut.Name);
            w.WriteNumber("outTid", outTid);
            w.WriteNumber("outManagedId", transferOut.ManagedThreadId);
            w.WriteString("outMethod", "TriageApp.Deadlock.TransferOut");
            w.WriteString("monitorType", typeof(Ledger).FullName);
            w.WriteString("lockType", Journal.GetType().FullName);
        });
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void TransferIn()
    {
        lock (Books)
        {
            BothHold.SignalAndWait();
#if NET9_0_OR_GREATER
            Journal.Enter(); // line: transfer-in-waits
            try
            {
                Books.Balance++;
            }
            finally
            {
                Journal.Exit();
            }
#else
            lock (Journal) // line: transfer-in-waits-monitor
            {
                Books.Balance++;
            }
#endif
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void TransferOut()
    {
        lock (Journal)
        {
            BothHold.SignalAndWait();
            lock (Books) // line: transfer-out-waits
            {
                Books.Balance--;
            }
        }
    }
}
