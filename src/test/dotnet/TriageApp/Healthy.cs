using System.Collections.Concurrent;

namespace TriageApp;

/// <summary>
/// <c>healthy</c>: a process at work with nothing wrong: a worker waiting for jobs, jobs run on the
/// thread pool and awaited, a timer, a small cache, a lock taken and let go, and an async method
/// waiting on a delay. Triage must find nothing in it.
/// </summary>
internal static class Healthy
{
    private static readonly BlockingCollection<int> Jobs = new();
    private static readonly Dictionary<int, string> Cache = new();
    private static readonly object CacheLock = new();
    private static Timer? Heartbeat;
    private static Task? Waiting;
    private static int done;

    internal static void Make()
    {
        var worker = new Thread(() =>
        {
            foreach (int job in Jobs.GetConsumingEnumerable())
            {
                lock (CacheLock)
                {
                    Cache[job] = "job-" + job;
                }
                Interlocked.Increment(ref done);
            }
        })
        { IsBackground = true, Name = "job-worker" };
        worker.Start();
        for (int i = 0; i < 100; i++)
        {
            Jobs.Add(i);
        }
        var tasks = new Task<int>[20];
        for (int i = 0; i < tasks.Length; i++)
        {
            int n = i;
            tasks[i] = Task.Run(async () =>
            {
                await Task.Yield();
                return n * n;
            });
        }
        int sum = Task.WhenAll(tasks).GetAwaiter().GetResult().Sum();
        Heartbeat = new Timer(_ => { }, null, 60_000, 60_000);
        Waiting = Task.Delay(TimeSpan.FromHours(1));
        SpinWait.SpinUntil(() => Volatile.Read(ref done) == 100, 30_000);
        Program.WaitBlocked(worker);
        Program.Emit(w =>
        {
            w.WriteString("event", "healthy");
            w.WriteNumber("jobs", Volatile.Read(ref done));
            w.WriteNumber("sum", sum);
        });
    }
}
