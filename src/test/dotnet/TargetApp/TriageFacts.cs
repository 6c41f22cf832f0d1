using System.Collections.Concurrent;
using System.Runtime.CompilerServices;

namespace TargetApp;

/// <summary>
/// What the triage commands of <c>analyze</c> (timerinfo, threadpoolqueue, taskstate,
/// dumpconcurrentqueue, dumpconcurrentdictionary, dumpasync, pstacks) have to find, with known
/// values (<c>triage-facts</c>): timers with known callbacks, due times and periods; a concurrent
/// queue and dictionary with known items; a chain of two async methods waiting on a task that never
/// completes; tasks completed, faulted and canceled; and every thread-pool worker blocked in
/// <see cref="Occupy"/> while work items wait in the global queue and in each worker's local queue.
/// Once per process: it leaves the thread pool blocked for good.
/// </summary>
internal static class TriageFacts
{
    internal const int TickTimers = 3;
    internal const int TickDueMs = 3_600_000;
    internal const int TickPeriodMs = 60_000;
    internal const int OtherDueMs = 7_200_000;
    internal const int QueueItems = 10;
    internal const int DictionaryItems = 20;
    internal const int GlobalWorkItems = 5;
    internal const int QueuedTasks = 3;

    // The roots the tests name.
    private static Timer[]? Timers;
    private static ConcurrentQueue<string>? Queue;
    private static ConcurrentDictionary<int, string>? Dictionary;
    private static TaskCompletionSource<int>? Gate;
    private static Task<int>? Pending;
    private static Task<int>? Completed;
    private static Task? Faulted;
    private static Task? Canceled;
    private static Task[]? Queued;

    // A lock whose object had its hash code taken first, so the lock lives in a sync block (a thin
    // lock in the object header shows in no syncblk listing).
    private static readonly object HashedLock = new();

    private static int occupied;
    private static int queuedLocally;
    private static int workerCount;
    private static readonly ManualResetEventSlim Never = new(false);

    internal static void Make()
    {
        if (Timers != null)
        {
            throw new ArgumentException("triage facts are made once per process");
        }
        var timers = new List<Timer>();
        for (int i = 0; i < TickTimers; i++)
        {
            timers.Add(new Timer(OnTick, i, TickDueMs, TickPeriodMs));
        }
        timers.Add(new Timer(OnOtherTick, null, OtherDueMs, Timeout.Infinite));
        Timers = timers.ToArray();

        var queue = new ConcurrentQueue<string>();
        for (int i = 0; i < QueueItems; i++)
        {
            queue.Enqueue("queued-" + i);
        }
        Queue = queue;
        var dictionary = new ConcurrentDictionary<int, string>();
        for (int i = 0; i < DictionaryItems; i++)
        {
            dictionary[i] = "value-" + i;
        }
        Dictionary = dictionary;

        Gate = new TaskCompletionSource<int>();
        Pending = OuterAsync();
        Completed = Task.FromResult(42);
        Faulted = Task.FromException(new InvalidOperationException("faulted on purpose"));
        Canceled = Task.FromCanceled(new CancellationToken(true));

        _ = HashedLock.GetHashCode();
        int lockTid = 0;
        var locked = new ManualResetEventSlim();
        new Thread(() =>
        {
            lockTid = Profiled.GetTid();
            HoldLock(locked);
        })
        { IsBackground = true, Name = "triage-lock" }.Start();
        locked.Wait();

        // Every worker blocked, each after queueing one item to its own local queue; then items in
        // the global queue that nobody can take.
        int workers = Environment.ProcessorCount;
        workerCount = workers;
        ThreadPool.GetMinThreads(out _, out int minIo);
        ThreadPool.GetMaxThreads(out _, out int maxIo);
        if (!ThreadPool.SetMinThreads(workers, minIo) || !ThreadPool.SetMaxThreads(workers, maxIo))
        {
            throw new InvalidOperationException("cannot limit the thread pool to " + workers + " workers");
        }
        for (int i = 0; i < workers; i++)
        {
            ThreadPool.UnsafeQueueUserWorkItem(_ => Occupy(), null);
        }
        SpinWait.SpinUntil(() => Volatile.Read(ref queuedLocally) == workers, 30_000);
        if (Volatile.Read(ref queuedLocally) != workers)
        {
            throw new InvalidOperationException("the thread pool's workers did not all start");
        }
        for (int i = 0; i < GlobalWorkItems; i++)
        {
            ThreadPool.UnsafeQueueUserWorkItem(QueuedWork, i);
        }
        var queued = new Task[QueuedTasks];
        for (int i = 0; i < QueuedTasks; i++)
        {
            queued[i] = Task.Run(QueuedTaskBody);
        }
        Queued = queued;

        Program.Emit(w =>
        {
            w.WriteString("event", "triage-facts");
            w.WriteString("holderType", typeof(TriageFacts).FullName);
            w.WriteNumber("tickTimers", TickTimers);
            w.WriteNumber("tickDueMs", TickDueMs);
            w.WriteNumber("tickPeriodMs", TickPeriodMs);
            w.WriteString("tickCallback", "TargetApp.TriageFacts.OnTick");
            w.WriteNumber("otherDueMs", OtherDueMs);
            w.WriteString("otherCallback", "TargetApp.TriageFacts.OnOtherTick");
            w.WriteNumber("queueItems", QueueItems);
            w.WriteString("queueItemPrefix", "queued-");
            w.WriteNumber("dictionaryItems", DictionaryItems);
            w.WriteString("dictionaryValuePrefix", "value-");
            w.WriteString("outerStateMachine", "TargetApp.TriageFacts+<OuterAsync>d__");
            w.WriteString("innerStateMachine", "TargetApp.TriageFacts+<InnerAsync>d__");
            w.WriteNumber("workers", workers);
            w.WriteString("occupyMethod", "TargetApp.TriageFacts.Occupy");
            w.WriteNumber("globalWorkItems", GlobalWorkItems);
            w.WriteString("workItemCallback", "TargetApp.TriageFacts.QueuedWork");
            w.WriteNumber("localWorkItems", workers);
            w.WriteString("localWorkCallback", "TargetApp.TriageFacts.LocalWork");
            w.WriteNumber("queuedTasks", QueuedTasks);
            w.WriteString("queuedTaskMethod", "TargetApp.TriageFacts.QueuedTaskBody");
            w.WriteNumber("lockTid", lockTid);
            w.WriteString("lockMethod", "TargetApp.TriageFacts.HoldLock");
        });
    }

    private static void OnTick(object? state) { }

    private static void OnOtherTick(object? state) { }

    private static void QueuedWork(object? state) { }

    private static void LocalWork(int index) { }

    private static void QueuedTaskBody() { }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void HoldLock(ManualResetEventSlim locked)
    {
        lock (HashedLock)
        {
            locked.Set();
            Thread.Sleep(Timeout.Infinite);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Occupy()
    {
        // Once every worker is here, none is free to steal from another's queue: then one item
        // into this worker's own queue.
        int index = Interlocked.Increment(ref occupied);
        SpinWait.SpinUntil(() => Volatile.Read(ref occupied) >= workerCount);
        ThreadPool.QueueUserWorkItem(LocalWork, index, preferLocal: true);
        Interlocked.Increment(ref queuedLocally);
        Never.Wait();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static async Task<int> OuterAsync()
    {
        int inner = await InnerAsync();
        return inner + 1;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static async Task<int> InnerAsync()
    {
        int value = await Gate!.Task;
        return value * 2;
    }
}
