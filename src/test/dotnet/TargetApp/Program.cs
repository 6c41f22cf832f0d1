using System.Diagnostics;
using System.Globalization;
using System.Reflection;
using System.Text.Json;

using TestApps;

namespace TargetApp;

/// <summary>
/// A .NET process the end-to-end tests steer over stdin/stdout so that what the CLI reports can be
/// compared with facts the process itself knows. Every line it writes to stdout is one JSON object
/// with an "event" member; README.md next to this file describes the protocol.
/// </summary>
internal static class Program
{
    private const string DiagnosticPortsVariable = "DOTNET_DiagnosticPorts";

    /// <summary>The message of every exception that <c>throw N</c> raises, so tests can match it.</summary>
    private const string ThrownMessage = "thrown by TargetApp on request";

    private static readonly TimeSpan ChildTimeout = TimeSpan.FromSeconds(10);

    // Static so that held objects stay reachable for heap inspection until "release".
    private static readonly List<Widget> Held = new();

    // The heap's shapes for dump-heap: a chain held only by this field, a large array (LOH).
    private static ChainNode? ChainHead;
    private static byte[]? LargeBytes;

    // Links for heap benchmarks: each holds two others, so N links make about 3N references.
    private static readonly List<Link> HeldLinks = new();

    private static int Main(string[] args)
    {
        DateTime startedUtc = DateTime.UtcNow;
        Options options;
        try
        {
            options = Options.Parse(args);
        }
        catch (ArgumentException e)
        {
            Console.Error.WriteLine($"TargetApp: {e.Message}");
            return 64;
        }

        if (options.Child)
        {
            Emit(w =>
            {
                w.WriteString("event", "child");
                w.WriteNumber("pid", Environment.ProcessId);
                w.WriteString("diagnosticPorts", Environment.GetEnvironmentVariable(DiagnosticPortsVariable));
            });
            return 0;
        }

        EmitReady(args, options, startedUtc);

        if (options.ExitAfterMs is int delay)
        {
            // A background thread, so the main thread can stay blocked in ReadLine (or sleep).
            var timer = new Thread(() =>
            {
                Thread.Sleep(delay);
                Exit(options.ExitCode, "exit-after-ms");
            })
            {
                IsBackground = true,
                Name = "exit-after-ms",
            };
            timer.Start();
        }

        if (options.NoStdin)
        {
            Thread.Sleep(Timeout.Infinite);
            return 0;
        }

        Protocol.ServeCommands(Execute);
        return 0;
    }

    private static void EmitReady(string[] args, Options options, DateTime startedUtc)
    {
        Protocol.EmitReady(args, w =>
        {
            w.WriteString("startedUtc", startedUtc.ToString("O", CultureInfo.InvariantCulture));
            if (options.PrintEnv.Count > 0)
            {
                w.WriteStartObject("env");
                foreach (string name in options.PrintEnv)
                {
                    w.WriteString(name, Environment.GetEnvironmentVariable(name));
                }
                w.WriteEndObject();
            }
        });
    }


    private static void Execute(string line)
    {
        string[] words = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        try
        {
            switch (words[0])
            {
                case "ping" when words.Length == 1:
                    Emit(w => w.WriteString("event", "pong"));
                    break;
                case "env" when words.Length == 2:
                    Emit(w =>
                    {
                        w.WriteString("event", "env");
                        w.WriteString("name", words[1]);
                        w.WriteString("value", Environment.GetEnvironmentVariable(words[1]));
                    });
                    break;
                case "gc" when words.Length == 2:
                    InduceGcs(Count(words[1]));
                    break;
                case "churn" when words.Length == 3:
                    Churn(Count(words[1]), Count(words[2]));
                    break;
                case "gcinfo" when words.Length == 1:
                    Emit(w =>
                    {
                        w.WriteString("event", "gcinfo");
                        WriteCollectionCounts(w);
                        WriteLastGcInfo(w);
                    });
                    break;
                case "counts" when words.Length == 1:
                    Emit(w =>
                    {
                        w.WriteString("event", "counts");
                        WriteCollectionCounts(w);
                    });
                    break;
                case "hold" when words.Length == 3:
                    Hold(words[1], Count(words[2]));
                    break;
                case "hold-chunks" when words.Length == 3:
                    HeldChunks.Hold(Count(words[1]), Count(words[2]), Emit);
                    break;
                case "release" when words.Length == 1:
                    long released = Held.Count + HeldLinks.Count + HeldChunks.Release();
                    Held.Clear();
                    HeldLinks.Clear();
                    Emit(w =>
                    {
                        w.WriteString("event", "release");
                        w.WriteNumber("released", released);
                    });
                    break;
                case "shapes" when words.Length == 1:
                    Shapes();
                    break;
                case "facts" when words.Length == 2:
                    DumpFacts.Make(Count(words[1]));
                    break;
                case "heap-facts" when words.Length == 2:
                    HeapFacts.Make(Count(words[1]));
                    break;
                case "triage-facts" when words.Length == 1:
                    TriageFacts.Make();
                    break;
                case "lock-waiters" when words.Length == 2:
                    LockWaiters.Make(Count(words[1]));
                    break;
                case "exact-facts" when words.Length == 1:
                    ExactFacts.Make();
                    break;
                case "queue" when words.Length == 2:
                    DumpFacts.BlockPoolAndQueue(Count(words[1]));
                    break;
                case "throw" when words.Length == 2:
                    Throw(Count(words[1]));
                    break;
                case "fail" when words.Length == 2:
                    Monitored.Fail(Count(words[1]));
                    break;
                case "contend" when words.Length == 3:
                    Monitored.Contend(words[1], Count(words[2]));
                    break;
                case "wait" when words.Length == 2:
                    Monitored.Wait(Count(words[1]));
                    break;
                case "spin" when words.Length == 2:
                    Profiled.Spin(Count(words[1]));
                    break;
                case "deep" when words.Length == 4:
                    Profiled.Deep(Count(words[1]), Count(words[2]), Count(words[3]));
                    break;
                case "allocate" when words.Length == 3:
                    Profiled.Allocate(Count(words[1]), Count(words[2]));
                    break;
                case "http" when words.Length == 2:
                    HttpTraffic.Requests(Count(words[1]));
                    break;
                case "hold-twice" when words.Length == 2:
                    HeapFacts.HoldTwice(Count(words[1]));
                    break;
                case "hostile-text" when words.Length == 1:
                    HostileText.Run();
                    break;
                case "http-slow" when words.Length == 3:
                    HttpTraffic.Slow(Count(words[1]), Count(words[2]));
                    break;
                case "http-fail" when words.Length == 1:
                    HttpTraffic.Failing();
                    break;
                case "http-load" when words.Length == 3:
                    HttpTraffic.Load(Count(words[1]), Count(words[2]));
                    break;
                case "throw-load" when words.Length == 3:
                    ThrowLoad(Count(words[1]), Count(words[2]));
                    break;
                case "crash" when words.Length == 1:
                    Monitored.Crash();
                    break;
                case "spawn" when words.Length == 1:
                    Spawn();
                    break;
                case "exit" when words.Length == 2:
                    Exit(int.Parse(words[1], CultureInfo.InvariantCulture), "command");
                    break;
                default:
                    throw new ArgumentException($"unknown command or wrong number of arguments: {line}");
            }
        }
        catch (Exception e) when (e is ArgumentException or FormatException or OverflowException)
        {
            // Answer every line, so a test waiting for the answer fails with this message, not a timeout.
            Emit(w =>
            {
                w.WriteString("event", "error");
                w.WriteString("command", line);
                w.WriteString("message", e.Message);
            });
        }
    }

    private static int Count(string word) => int.Parse(word, NumberStyles.None, CultureInfo.InvariantCulture);

    private static void InduceGcs(int n)
    {
        for (int i = 0; i < n; i++)
        {
            GC.Collect(2, GCCollectionMode.Forced, blocking: true);
        }
        Emit(w =>
        {
            w.WriteString("event", "gc");
            w.WriteNumber("induced", n);
            WriteCollectionCounts(w);
        });
    }

    /// <summary>
    /// N rounds of: allocate KB kilobytes of short-lived 1 KB arrays, then one blocking gen2
    /// <c>GC.Collect</c>. A tool watching GCs should see exactly N induced gen2 GCs, each after
    /// about KB kilobytes of allocation; the last one is described from the GC's own record.
    /// </summary>
    private static void Churn(int n, int kilobytes)
    {
        long allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
        int gen2Before = GC.CollectionCount(2);
        long sink = 0;
        for (int i = 0; i < n; i++)
        {
            for (int k = 0; k < kilobytes; k++)
            {
                // 1 KB minus the array header, so each array takes about one kilobyte of heap.
                byte[] garbage = new byte[1000];
                sink += garbage.Length;
            }
            GC.Collect(2, GCCollectionMode.Forced, blocking: true);
        }
        long allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;
        Emit(w =>
        {
            w.WriteString("event", "churn");
            w.WriteNumber("induced", n);
            w.WriteNumber("allocatedBytes", allocated);
            w.WriteNumber("touchedBytes", sink);
            w.WriteNumber("gen2Before", gen2Before);
            WriteCollectionCounts(w);
            WriteLastGcInfo(w);
        });
    }

    /// <summary>What the runtime recorded about its last GC (<c>GC.GetGCMemoryInfo</c>).</summary>
    private static void WriteLastGcInfo(Utf8JsonWriter w)
    {
        GCMemoryInfo info = GC.GetGCMemoryInfo(GCKind.Any);
        w.WriteStartObject("lastGc");
        w.WriteNumber("index", info.Index);
        w.WriteNumber("generation", info.Generation);
        w.WriteBoolean("compacted", info.Compacted);
        w.WriteBoolean("concurrent", info.Concurrent);
        w.WriteNumber("heapSizeBytes", info.HeapSizeBytes);
        w.WriteNumber("promotedBytes", info.PromotedBytes);
        w.WriteNumber("fragmentedBytes", info.FragmentedBytes);
        w.WriteNumber("pinnedObjectsCount", info.PinnedObjectsCount);
        w.WriteNumber("pauseMs", info.PauseDurations.Length > 0 ? info.PauseDurations[0].TotalMilliseconds : 0);
        w.WriteStartArray("generations");
        foreach (GCGenerationInfo g in info.GenerationInfo)
        {
            w.WriteStartObject();
            w.WriteNumber("sizeBeforeBytes", g.SizeBeforeBytes);
            w.WriteNumber("sizeAfterBytes", g.SizeAfterBytes);
            w.WriteNumber("fragmentationBeforeBytes", g.FragmentationBeforeBytes);
            w.WriteNumber("fragmentationAfterBytes", g.FragmentationAfterBytes);
            w.WriteEndObject();
        }
        w.WriteEndArray();
        w.WriteEndObject();
    }

    private static void WriteCollectionCounts(Utf8JsonWriter w)
    {
        w.WriteNumber("gen0", GC.CollectionCount(0));
        w.WriteNumber("gen1", GC.CollectionCount(1));
        w.WriteNumber("gen2", GC.CollectionCount(2));
    }

    private static void Hold(string type, int n)
    {
        if (type == nameof(Link) || type == typeof(Link).FullName)
        {
            HoldLinks(n);
            return;
        }
        if (type != nameof(Widget) && type != typeof(Widget).FullName)
        {
            throw new ArgumentException(
                $"unknown type {type}; known: {typeof(Widget).FullName}, {typeof(Link).FullName}");
        }
        for (int i = 0; i < n; i++)
        {
            Held.Add(new Widget(Held.Count));
        }
        Emit(w =>
        {
            w.WriteString("event", "hold");
            w.WriteString("type", typeof(Widget).FullName);
            w.WriteNumber("added", n);
            w.WriteNumber("held", Held.Count);
        });
    }

    // A 1,000-link chain rooted only in a static field, a 1,000,000-byte array (on the large object
    // heap), and a StackHeld object that only a local variable of a waiting thread holds.
    private static void Shapes()
    {
        ChainNode? head = null;
        for (int i = 0; i < 1000; i++)
        {
            head = new ChainNode(head);
        }
        ChainHead = head;
        LargeBytes = new byte[1_000_000];
        var started = new ManualResetEventSlim();
        var thread = new Thread(() =>
        {
            var held = new StackHeld();
            started.Set();
            Release.Wait();
            GC.KeepAlive(held);
        })
        { IsBackground = true, Name = "stack-holder" };
        thread.Start();
        started.Wait();
        Emit(w =>
        {
            w.WriteString("event", "shapes");
            w.WriteNumber("chain", 1000);
            w.WriteNumber("largeBytes", LargeBytes.Length);
        });
    }

    private static readonly ManualResetEventSlim Release = new();

    private static void HoldLinks(int n)
    {
        int start = HeldLinks.Count;
        HeldLinks.Capacity = start + n;
        for (int i = 0; i < n; i++)
        {
            int at = start + i;
            Link? next = at > 0 ? HeldLinks[at - 1] : null;
            Link? other = at > 1 ? HeldLinks[at / 2] : null;
            HeldLinks.Add(new Link(next, other));
        }
        Emit(w =>
        {
            w.WriteString("event", "hold");
            w.WriteString("type", typeof(Link).FullName);
            w.WriteNumber("added", n);
            w.WriteNumber("held", HeldLinks.Count);
        });
    }

    private static void Throw(int n)
    {
        int caught = 0;
        for (int i = 0; i < n; i++)
        {
            try
            {
                throw new InvalidOperationException(ThrownMessage);
            }
            catch (InvalidOperationException)
            {
                caught++;
            }
        }
        Emit(w =>
        {
            w.WriteString("event", "throw");
            w.WriteString("type", typeof(InvalidOperationException).FullName);
            w.WriteString("message", ThrownMessage);
            w.WriteNumber("thrown", caught);
        });
    }

    /// <summary>For benchmarks: about RATE caught exceptions a second for SECONDS seconds.</summary>
    private static void ThrowLoad(int rate, int seconds)
    {
        var clock = Stopwatch.StartNew();
        long thrown = 0;
        long total = (long)rate * seconds;
        while (thrown < total)
        {
            try
            {
                throw new InvalidOperationException(ThrownMessage);
            }
            catch (InvalidOperationException)
            {
                thrown++;
            }
            // Paced in batches of a millisecond's worth: the thrown-th is due at thrown / rate s.
            long aheadMs = thrown * 1000 / rate - clock.ElapsedMilliseconds;
            if (aheadMs > 0)
            {
                Thread.Sleep((int)aheadMs);
            }
        }
        Emit(w =>
        {
            w.WriteString("event", "throw-load");
            w.WriteNumber("thrown", thrown);
            w.WriteNumber("seconds", clock.Elapsed.TotalSeconds);
        });
    }

    /// <summary>
    /// Starts this app again with <c>--child</c> and reports the diagnostic-port variable the child
    /// saw. A child that inherited a suspending port would wait forever for a tool to resume it, so
    /// it is killed after a timeout and reported as such.
    /// </summary>
    private static void Spawn()
    {
        string host = Environment.ProcessPath ?? throw new ArgumentException("no process path");
        var start = new ProcessStartInfo(host)
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
        };
        // Under the dotnet muxer the child needs the dll; under the apphost the host is the app.
        bool apphost = Path.GetFileNameWithoutExtension(host) == Assembly.GetEntryAssembly()?.GetName().Name;
        if (!apphost)
        {
            start.ArgumentList.Add(Assembly.GetEntryAssembly()!.Location);
        }
        start.ArgumentList.Add("--child");
        start.Environment.TryGetValue(DiagnosticPortsVariable, out string? inherited);

        using Process child = Process.Start(start) ?? throw new ArgumentException($"could not start {host}");
        Task<string> output = child.StandardOutput.ReadToEndAsync();
        bool exited = child.WaitForExit(ChildTimeout);
        if (!exited)
        {
            child.Kill(entireProcessTree: true);
            child.WaitForExit();
        }
        string? childEnv = null;
        // A suspended runtime prints a notice to stdout before Main; only the child's JSON line counts.
        foreach (string line in output.Result.Split('\n', StringSplitOptions.RemoveEmptyEntries))
        {
            if (!line.StartsWith('{'))
            {
                continue;
            }
            using JsonDocument doc = JsonDocument.Parse(line);
            if (doc.RootElement.GetProperty("event").GetString() == "child")
            {
                childEnv = doc.RootElement.GetProperty("diagnosticPorts").GetString();
            }
        }
        Emit(w =>
        {
            w.WriteString("event", "spawn");
            w.WriteNumber("pid", child.Id);
            w.WriteString("childEnv", childEnv);
            w.WriteString("inheritedEnv", inherited);
            w.WriteBoolean("timedOut", !exited);
            if (exited)
            {
                w.WriteNumber("exitCode", child.ExitCode);
            }
            else
            {
                w.WriteNull("exitCode");
            }
        });
    }

    private static void Exit(int code, string reason)
    {
        Emit(w =>
        {
            w.WriteString("event", "exit");
            w.WriteNumber("code", code);
            w.WriteString("reason", reason);
        });
        Environment.Exit(code);
    }

    internal static void Emit(Action<Utf8JsonWriter> body) => Protocol.Emit(body);

    private sealed record Options(int? ExitAfterMs, int ExitCode, bool NoStdin, bool Child, List<string> PrintEnv)
    {
        public static Options Parse(string[] args)
        {
            int? exitAfterMs = null;
            int exitCode = 0;
            bool noStdin = false;
            bool child = false;
            var printEnv = new List<string>();
            for (int i = 0; i < args.Length; i++)
            {
                string arg = args[i];
                switch (arg)
                {
                    case "--":
                        // Everything after "--" is free text for tests to look for in "args".
                        return new Options(exitAfterMs, exitCode, noStdin, child, printEnv);
                    case "--exit-after-ms":
                        exitAfterMs = Number(args, ref i);
                        break;
                    case "--exit-code":
                        exitCode = Number(args, ref i);
                        break;
                    case "--no-stdin":
                        noStdin = true;
                        break;
                    case "--child":
                        child = true;
                        break;
                    case "--print-env":
                        printEnv.Add(Value(args, ref i));
                        break;
                    default:
                        if (arg.StartsWith("--", StringComparison.Ordinal))
                        {
                            throw new ArgumentException($"unknown option {arg}");
                        }
                        break;
                }
            }
            return new Options(exitAfterMs, exitCode, noStdin, child, printEnv);
        }

        private static string Value(string[] args, ref int i)
        {
            if (i + 1 >= args.Length)
            {
                throw new ArgumentException($"{args[i]} needs a value");
            }
            return args[++i];
        }

        private static int Number(string[] args, ref int i)
        {
            string option = args[i];
            string value = Value(args, ref i);
            if (!int.TryParse(value, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out int n) || (option == "--exit-after-ms" && n < 0))
            {
                throw new ArgumentException($"{option} needs a number, not {value}");
            }
            return n;
        }
    }
}

/// <summary>The objects <c>hold TYPE N</c> keeps alive, so a heap walk has a type with a known count.</summary>
public sealed class ChainNode
{
    public ChainNode(ChainNode? next)
    {
        Next = next;
    }

    public ChainNode? Next { get; }
}

public sealed class StackHeld
{
    public long Value { get; } = 42;
}

public sealed class Link
{
    public Link(Link? next, Link? other)
    {
        Next = next;
        Other = other;
    }

    public Link? Next { get; }

    public Link? Other { get; }
}

public sealed class Widget
{
    public Widget(long id)
    {
        Id = id;
        Label = "widget";
    }

    public long Id { get; }

    public string Label { get; }

    // Odd-sized on purpose, so a heap walk's object size is not a coincidence of alignment.
    public int Weight { get; } = 7;
}
