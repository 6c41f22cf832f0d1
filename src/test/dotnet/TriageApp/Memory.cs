using System.Runtime.CompilerServices;

namespace TriageApp;

/// <summary>A user's session, with the payload it keeps.</summary>
internal sealed class Session
{
    internal int Id;
    internal byte[] Payload = Array.Empty<byte>();
}

/// <summary>The cache that never forgets a session: the leak.</summary>
internal static class SessionCache
{
    internal static readonly Dictionary<int, Session> Sessions = new();
}

/// <summary>Labels read from a file, each line its own copy of the same text.</summary>
internal static class Catalog
{
    internal static string[]? Labels;
}

/// <summary>Lists made big for a burst that never came.</summary>
internal static class BufferPool
{
    internal static readonly List<List<string>> Lists = new();
}

/// <summary>Pollers started per request and never stopped.</summary>
internal static class Poller
{
    internal static readonly List<Timer> Timers = new();

    internal static void OnPoll(object? state) { }
}

/// <summary>An event every subscriber joins and none leaves.</summary>
internal static class EventBus
{
    internal static event EventHandler? Changed;

    internal static int Raise()
    {
        Changed?.Invoke(null, EventArgs.Empty);
        return Changed?.GetInvocationList().Length ?? 0;
    }
}

internal sealed class Subscriber
{
    internal int Seen;

    internal void OnChanged(object? sender, EventArgs e) => Seen++;
}

/// <summary>Large buffers of which only some are kept: free space between them in the LOH.</summary>
internal static class LargeBuffers
{
    internal static readonly List<byte[]> Kept = new();
}

/// <summary>
/// <c>memory</c>: what triage's memory findings must report, as Eclipse MAT's Leak Suspects would:
/// <see cref="SessionCache.Sessions"/> holding <see cref="SessionCount"/> sessions of
/// <see cref="PayloadBytes"/> each (the suspect, most of the heap); <see cref="LabelCopies"/>
/// strings of one value; <see cref="EmptyLists"/> lists of capacity <see cref="ListCapacity"/>
/// holding one item each; <see cref="TimerCount"/> timers on <see cref="Poller.OnPoll"/>;
/// <see cref="Subscribers"/> handlers on one event; large buffers with free space between them.
/// <c>grow N</c> adds N sessions.
/// </summary>
internal static class Memory
{
    internal const int SessionCount = 20_000;
    internal const int PayloadBytes = 2_000;
    internal const int LabelCopies = 20_000;
    internal const int EmptyLists = 500;
    internal const int ListCapacity = 512;
    internal const int TimerCount = 2_000;
    internal const int Subscribers = 5_000;
    internal const int LargeBuffersMade = 33;
    internal const int LargeBufferBytes = 256 * 1024;
    internal const int KeepEvery = 8;

    internal static void Make()
    {
        Grow(SessionCount);
        string label = string.Concat("premium-customer-tier:", new string('g', 42));
        var labels = new string[LabelCopies];
        labels[0] = label;
        for (int i = 1; i < LabelCopies; i++)
        {
            labels[i] = new string(label.AsSpan());
        }
        Catalog.Labels = labels;
        for (int i = 0; i < EmptyLists; i++)
        {
            BufferPool.Lists.Add(new List<string>(ListCapacity) { "burst-" + i });
        }
        for (int i = 0; i < TimerCount; i++)
        {
            Poller.Timers.Add(new Timer(Poller.OnPoll, i, 3_600_000, 60_000));
        }
        for (int i = 0; i < Subscribers; i++)
        {
            EventBus.Changed += new Subscriber().OnChanged;
        }
        MakeLargeBuffers();
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: false);
        Program.Emit(w =>
        {
            w.WriteString("event", "memory");
            w.WriteNumber("sessions", SessionCache.Sessions.Count);
            w.WriteNumber("payloadBytes", PayloadBytes);
            w.WriteString("sessionType", typeof(Session).FullName);
            w.WriteString("cacheType", "System.Collections.Generic.Dictionary<System.Int32, TriageApp.Session>");
            w.WriteString("cacheField", "TriageApp.SessionCache.Sessions");
            w.WriteNumber("labelCopies", LabelCopies);
            w.WriteString("labelValue", label);
            w.WriteNumber("emptyLists", EmptyLists);
            w.WriteNumber("listCapacity", ListCapacity);
            w.WriteNumber("timers", TimerCount);
            w.WriteString("timerCallback", "TriageApp.Poller.OnPoll");
            w.WriteNumber("subscribers", EventBus.Raise());
            w.WriteString("eventField", "TriageApp.EventBus.Changed");
            w.WriteString("handlerMethod", "TriageApp.Subscriber.OnChanged");
            w.WriteNumber("largeBuffersKept", LargeBuffers.Kept.Count);
            w.WriteNumber("largeBufferBytes", LargeBufferBytes);
        });
    }

    internal static void Grow(int sessions)
    {
        int first = SessionCache.Sessions.Count;
        for (int i = first; i < first + sessions; i++)
        {
            SessionCache.Sessions[i] = new Session { Id = i, Payload = new byte[PayloadBytes] };
        }
        if (first > 0)
        {
            Program.Emit(w =>
            {
                w.WriteString("event", "grow");
                w.WriteNumber("added", sessions);
                w.WriteNumber("sessions", SessionCache.Sessions.Count);
            });
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void MakeLargeBuffers()
    {
        // All alive until the last is made, so no buffer reuses a dropped one's space: then the
        // dropped ones' space is free between the kept ones.
        var all = new byte[LargeBuffersMade][];
        for (int i = 0; i < LargeBuffersMade; i++)
        {
            all[i] = new byte[LargeBufferBytes];
        }
        for (int i = 0; i < LargeBuffersMade; i += KeepEvery)
        {
            LargeBuffers.Kept.Add(all[i]);
        }
    }
}
