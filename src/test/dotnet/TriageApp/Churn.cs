namespace TriageApp;

/// <summary>
/// <c>churn RATE</c>: what the live watch of triage reports, for as long as the process lives: a
/// thread that throws and catches about RATE exceptions a second, and a thread that keeps
/// <see cref="LiveBytes"/> of small arrays alive and forces a full compacting GC every 10 ms, so
/// that the process spends most of its time paused in GC.
/// </summary>
internal static class Churn
{
    internal const int LiveBytes = 32 << 20;
    private static readonly List<byte[]> Live = new();

    internal static void Start(int rate)
    {
        for (int i = 0; i < LiveBytes / 1024; i++)
        {
            Live.Add(new byte[1024 - 24]);
        }
        new Thread(() => Throw(rate)) { IsBackground = true, Name = "churn-throw" }.Start();
        new Thread(Collect) { IsBackground = true, Name = "churn-gc" }.Start();
        Program.Emit(w =>
        {
            w.WriteString("event", "churn");
            w.WriteNumber("rate", rate);
            w.WriteString("type", typeof(FormatException).FullName);
            w.WriteNumber("liveBytes", LiveBytes);
        });
    }

    private static void Throw(int rate)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        long thrown = 0;
        while (true)
        {
            try
            {
                throw new FormatException("churned " + thrown);
            }
            catch (FormatException)
            {
                thrown++;
            }
            long ahead = thrown * 1000 / rate - clock.ElapsedMilliseconds;
            if (ahead > 0)
            {
                Thread.Sleep((int)ahead);
            }
        }
    }

    private static void Collect()
    {
        while (true)
        {
            GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
            Thread.Sleep(10);
        }
    }
}
