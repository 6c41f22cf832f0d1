using System.Runtime.CompilerServices;

namespace TriageApp;

/// <summary>
/// <c>sync-over-async</c>: the thread pool capped at <see cref="Workers"/> workers, every one of
/// them blocked in <see cref="HandleRequest"/> on the <c>Result</c> of a task that never completes,
/// and <see cref="QueuedOrders"/> work items of <see cref="ProcessOrder"/> queued behind them that
/// no worker is free to run: sync over async that starves the pool. A thread of its own,
/// <c>report-builder</c>, blocks the same way in <see cref="BuildReport"/>
/// (<c>GetAwaiter().GetResult()</c>).
/// </summary>
internal static class SyncOverAsync
{
    internal const int Workers = 4;
    internal const int QueuedOrders = 10;

    private static readonly TaskCompletionSource<string> Never = new();
    private static int blocked;
    private static readonly List<int> PoolTids = new();

    internal static void Make()
    {
        ThreadPool.GetMinThreads(out _, out int minIo);
        ThreadPool.GetMaxThreads(out _, out int maxIo);
        if (!ThreadPool.SetMinThreads(Workers, minIo) || !ThreadPool.SetMaxThreads(Workers, maxIo))
        {
            throw new InvalidOperationException(
                "cannot cap the thread pool at " + Workers + " workers (" + Environment.ProcessorCount + " processors)");
        }
        for (int i = 0; i < Workers; i++)
        {
            ThreadPool.UnsafeQueueUserWorkItem(_ => HandleRequest(), null);
        }
        if (!SpinWait.SpinUntil(() => Volatile.Read(ref blocked) == Workers, 30_000))
        {
            throw new InvalidOperationException("the workers did not all start");
        }
        for (int i = 0; i < QueuedOrders; i++)
        {
            ThreadPool.UnsafeQueueUserWorkItem(ProcessOrder, i);
        }
        int reportTid = 0;
        var report = new Thread(() =>
        {
            reportTid = Program.Tid();
            BuildReport();
        })
        { IsBackground = true, Name = "report-builder" };
        report.Start();
        Program.WaitBlocked(report);
        Thread.Sleep(200);
        Program.Emit(w =>
        {
            w.WriteString("event", "sync-over-async");
            w.WriteNumber("workers", Workers);
            w.WriteStartArray("workerTids");
            lock (PoolTids)
            {
                PoolTids.ForEach(w.WriteNumberValue);
            }
            w.WriteEndArray();
            w.WriteString("workerMethod", "TriageApp.SyncOverAsync.HandleRequest");
            w.WriteNumber("queued", QueuedOrders);
            w.WriteString("queuedCallback", "TriageApp.SyncOverAsync.ProcessOrder");
            w.WriteString("threadName", report.Name);
            w.WriteNumber("threadTid", reportTid);
            w.WriteString("threadMethod", "TriageApp.SyncOverAsync.BuildReport");
        });
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void HandleRequest()
    {
        lock (PoolTids)
        {
            PoolTids.Add(Program.Tid());
        }
        Interlocked.Increment(ref blocked);
        string customer = LoadCustomerAsync().Result; // line: handle-request-blocks
        GC.KeepAlive(customer);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void BuildReport()
    {
        string customer = LoadCustomerAsync().GetAwaiter().GetResult(); // line: build-report-blocks
        GC.KeepAlive(customer);
    }

    private static async Task<string> LoadCustomerAsync()
    {
        string name = await Never.Task;
        return name.ToUpperInvariant();
    }

    private static void ProcessOrder(object? order) { }
}
