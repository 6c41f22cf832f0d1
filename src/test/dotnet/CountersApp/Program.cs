using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Diagnostics.Tracing;
using System.Globalization;
using System.Text.Json;

using TestApps;

namespace CountersApp;

/// <summary>
/// A .NET process that publishes counters with known values, so the end-to-end tests can compare
/// what clrscope reports with the truth. It has its own Meter ("Clrscope.Demo") and its own
/// EventSource ("Clrscope-Demo"); the values are documented in README.md next to this file.
/// Every stdout line is one JSON object with an "event" member, like TargetApp's.
/// </summary>
internal static class Program
{
    /// <summary>How often the publishing thread ticks: 10 times a second.</summary>
    private const int TickMs = 100;

    private static readonly List<byte[]> Held = new();

    private static int Main(string[] args)
    {
        int churnKbPerTick = 0;
        bool noStdin = false;
        for (int i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--churn-kb-per-tick":
                    churnKbPerTick = int.Parse(args[++i], CultureInfo.InvariantCulture);
                    break;
                case "--no-stdin":
                    noStdin = true;
                    break;
                default:
                    Console.Error.WriteLine($"CountersApp: unknown argument {args[i]}");
                    return 64;
            }
        }

        using var meter = new Meter("Clrscope.Demo", "1.0");
        var demo = new DemoInstruments(meter);
        using var source = new DemoEventSource();
        var ticker = new Thread(() => Tick(demo, source, churnKbPerTick)) { IsBackground = true, Name = "ticker" };
        ticker.Start();

        Protocol.EmitReady(args);

        if (noStdin)
        {
            Thread.Sleep(Timeout.Infinite);
            return 0;
        }
        Protocol.ServeCommands(line =>
        {
            string[] words = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (words.Length == 2 && words[0] == "hold-mb")
            {
                // Kept reachable, so the heap size grows by this much and stays there.
                int mb = int.Parse(words[1], CultureInfo.InvariantCulture);
                for (int i = 0; i < mb; i++)
                {
                    byte[] block = new byte[1024 * 1024];
                    block.AsSpan().Fill(1);
                    Held.Add(block);
                }
                GC.Collect();
                Emit(w =>
                {
                    w.WriteString("event", "held");
                    w.WriteNumber("totalMb", Held.Count);
                    w.WriteNumber("heapBytes", GC.GetGCMemoryInfo().HeapSizeBytes);
                    w.WriteNumber("allocatedBytes", GC.GetTotalAllocatedBytes());
                });
            }
            else
            {
                Emit(w =>
                {
                    w.WriteString("event", "error");
                    w.WriteString("message", $"unknown command {line}");
                });
            }
        });
        return 0;
    }

    /// <summary>
    /// Ticks every 100 ms on a schedule that does not drift (the next tick is planned from the
    /// first, not from when the last one finished), so the per-second rates are as exact as the
    /// collection intervals allow.
    /// </summary>
    private static void Tick(DemoInstruments demo, DemoEventSource source, int churnKbPerTick)
    {
        var clock = Stopwatch.StartNew();
        long n = 0;
        while (true)
        {
            demo.OnTick();
            source.OnTick();
            if (churnKbPerTick > 0)
            {
                // Garbage: allocated and dropped at once, to make the allocation rate rise.
                for (int i = 0; i < churnKbPerTick; i++)
                {
                    GC.KeepAlive(new byte[1024]);
                }
            }
            n++;
            long wait = n * TickMs - clock.ElapsedMilliseconds;
            if (wait > 0)
            {
                Thread.Sleep((int)wait);
            }
        }
    }

    private static void Emit(Action<Utf8JsonWriter> write) => Protocol.Emit(write);
}

/// <summary>The Meter's instruments and what each tick does to them.</summary>
internal sealed class DemoInstruments
{
    private static readonly KeyValuePair<string, object?> RouteA = new("route", "/a");
    private static readonly KeyValuePair<string, object?> RouteB = new("route", "/b");
    private static readonly KeyValuePair<string, object?> Lab = new("room", "lab");

    private readonly Counter<long> requests;
    private readonly Histogram<double> latency;
    private readonly UpDownCounter<long> connections;
    private readonly Gauge<double> temperature;
    private long observations;

    public DemoInstruments(Meter meter)
    {
        requests = meter.CreateCounter<long>("clrscope.demo.requests", "{request}", "Requests handled");
        latency = meter.CreateHistogram<double>("clrscope.demo.latency", "ms", "Request latency");
        connections = meter.CreateUpDownCounter<long>("clrscope.demo.connections", "{connection}", "Open connections");
        temperature = meter.CreateGauge<double>("clrscope.demo.temperature", "Cel", "Room temperature");
        meter.CreateObservableGauge("clrscope.demo.queue.length", () => 42L, "{item}", "Items queued");
        // Grows by exactly 10 per observation, so its rate is 10 per collection whatever the
        // interval's real length.
        meter.CreateObservableCounter(
            "clrscope.demo.ticks", () => Interlocked.Add(ref observations, 10), "{tick}", "Observed ticks");
        // Never recorded to: it must show as waiting for its first value.
        meter.CreateCounter<long>("clrscope.demo.unused", "{event}", "Never incremented");
    }

    public void OnTick()
    {
        requests.Add(7, RouteA); // 70 per second
        requests.Add(3, RouteB); // 30 per second
        // 100 values a tick: 60 of 8 ms, 36 of 16 ms, 4 of 64 ms, so p50 = 8, p95 = 16, p99 = 64.
        for (int i = 0; i < 60; i++)
        {
            latency.Record(8, RouteA);
        }
        for (int i = 0; i < 36; i++)
        {
            latency.Record(16, RouteA);
        }
        for (int i = 0; i < 4; i++)
        {
            latency.Record(64, RouteA);
        }
        connections.Add(2); // +20 per second
        connections.Add(-1); // -10 per second: net +10 per second
        temperature.Record(21.5, Lab);
    }
}

/// <summary>The EventSource counters and what each tick does to them.</summary>
[EventSource(Name = "Clrscope-Demo")]
internal sealed class DemoEventSource : EventSource
{
    private readonly EventCounter requestLatency;
    private readonly IncrementingEventCounter requestsTotal;
    private readonly PollingCounter workingSet;
    private readonly IncrementingPollingCounter polls;
    private long pollCount;

    public DemoEventSource()
    {
        requestLatency = new EventCounter("request-latency", this)
        {
            DisplayName = "Request Latency",
            DisplayUnits = "ms",
        };
        requestsTotal = new IncrementingEventCounter("requests", this)
        {
            DisplayName = "Requests",
            DisplayRateTimeScale = TimeSpan.FromSeconds(1),
        };
        workingSet = new PollingCounter("cache-size", this, () => 123.5)
        {
            DisplayName = "Cache Size",
            DisplayUnits = "MB",
        };
        // Grows by exactly 10 per poll, so its increment is 10 whatever the interval's length.
        polls = new IncrementingPollingCounter("polls", this, () => Interlocked.Add(ref pollCount, 10))
        {
            DisplayName = "Polls",
            DisplayRateTimeScale = TimeSpan.FromSeconds(1),
        };
    }

    public void OnTick()
    {
        // Mean 20, min 10, max 30 in every interval.
        requestLatency.WriteMetric(10);
        requestLatency.WriteMetric(30);
        requestsTotal.Increment(4); // 40 per second
    }

    protected override void Dispose(bool disposing)
    {
        requestLatency.Dispose();
        requestsTotal.Dispose();
        workingSet.Dispose();
        polls.Dispose();
        base.Dispose(disposing);
    }
}
