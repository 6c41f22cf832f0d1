using System.Globalization;
using System.Text.Json;

using TestApps;

namespace TriageApp;

/// <summary>
/// The app of triage's end-to-end tests: each command puts the process in one state triage must
/// report (a deadlock, threads blocked on tasks, a starved thread pool, a blocked finalizer, an
/// exception, a crash, memory held for nothing) or in a healthy one, and answers with the facts the
/// report must show. The protocol is TargetApp's: a ready line, then one JSON answer per command
/// line (README.md).
/// </summary>
internal static class Program
{
    private static int Main(string[] args)
    {
        Protocol.EmitReady(args);
        Protocol.ServeCommands(line =>
        {
            try
            {
                Execute(line.Split(' ', StringSplitOptions.RemoveEmptyEntries));
            }
            catch (Exception e) when (e is ArgumentException or InvalidOperationException)
            {
                Emit(w =>
                {
                    w.WriteString("event", "error");
                    w.WriteString("command", line);
                    w.WriteString("message", e.Message);
                });
            }
        });
        return 0;
    }

    private static void Execute(string[] words)
    {
        switch (words[0])
        {
            case "ping":
                Emit(w => w.WriteString("event", "pong"));
                break;
            case "deadlock":
                Deadlock.Make();
                break;
            case "sync-over-async":
                SyncOverAsync.Make();
                break;
            case "finalizer":
                StuckFinalizer.Make();
                break;
            case "exception":
                Failures.CatchAndHold();
                break;
            case "crash":
                Failures.Crash();
                break;
            case "memory":
                Memory.Make();
                break;
            case "grow":
                Memory.Grow(int.Parse(words[1], CultureInfo.InvariantCulture));
                break;
            case "churn":
                Churn.Start(int.Parse(words[1], CultureInfo.InvariantCulture));
                break;
            case "healthy":
                Healthy.Make();
                break;
            default:
                throw new ArgumentException("unknown command " + words[0]);
        }
    }

    /// <summary>The OS id of the calling thread.</summary>
    internal static int Tid()
    {
        string target = Directory.ResolveLinkTarget("/proc/thread-self", false)?.FullName ?? "";
        return int.Parse(Path.GetFileName(target), CultureInfo.InvariantCulture);
    }

    /// <summary>Waits until <paramref name="thread"/> is blocked (WaitSleepJoin), at most 30 s.</summary>
    internal static void WaitBlocked(Thread thread)
    {
        if (!SpinWait.SpinUntil(() => (thread.ThreadState & ThreadState.WaitSleepJoin) != 0, 30_000))
        {
            throw new InvalidOperationException(thread.Name + " did not block");
        }
    }

    internal static void Emit(Action<Utf8JsonWriter> body) => Protocol.Emit(body);
}
