namespace TriageApp;

/// <summary>
/// <c>churn RATE</c>: a thread that throws and catches about RATE exceptions a second and forces
/// a full GC after every 50, for as long as the process lives: what the live watch of triage
/// reports (exceptions per second, time in GC).
/// </summary>
internal static class Churn
{
    private static readonly List<byte[]> Survivors = new();

    internal static void Start(int rate)
    {
        new Thread(() => Run(rate)) { IsBackground = true, Name = "churn" }.Start();
        Program.Emit(w =>
        {
            w.WriteString("event", "churn");
            w.WriteNumber("rate", rate);
            w.WriteString("type", typeof(FormatException).FullName);
        });
    }

    private static void Run(int rate)
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
            if (thrown % 50 == 0)
            {
                for (int i = 0; i < 200; i++)
                {
                    Survivors.Add(new byte[1024]);
                }
                if (Survivors.Count > 100_000)
                {
                    Survivors.Clear();
                }
                GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
            }
            long due = thrown * 1000 / rate;
            long ahead = due - clock.ElapsedMilliseconds;
            if (ahead > 0)
            {
                Thread.Sleep((int)ahead);
            }
        }
    }
}
