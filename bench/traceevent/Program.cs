// The reference side of bench/vs-traceevent.sh: the work of `clrscope trace stats` and
// `clrscope trace events --format json`, written on TraceEvent, so both run whole-process on the
// same file.
//   stats FILE   per provider, event id and version: name, count, payload bytes; one JSON document
//   events FILE  one JSON object a line: time, provider, id, version, name, thread, processor and
//                every payload field by name
//   count FILE   the events alone, counted (no parser subscribed): the least TraceEvent does to
//                read a file, the yardstick of `clrscope trace stats`' whole-process time
using System.Text.Json;
using Microsoft.Diagnostics.Tracing;

if (args.Length != 2 || (args[0] != "stats" && args[0] != "events" && args[0] != "count"))
{
    Console.Error.WriteLine("usage: TraceEventCli stats|events|count FILE");
    return 2;
}

using var source = new EventPipeEventSource(args[1]);
if (args[0] == "count")
{
    long count = 0;
    source.AllEvents += _ => count++;
    source.Process();
    Console.WriteLine(count);
    return 0;
}
// Subscribe the runtime's parsers (they register their templates only when subscribed to) so that
// native events carry TraceEvent's names and fields, the names `clrscope trace stats` is compared
// with.
source.Clr.All += _ => { };
new Microsoft.Diagnostics.Tracing.Parsers.Clr.ClrRundownTraceEventParser(source).All += _ => { };
new Microsoft.Diagnostics.Tracing.Parsers.ClrPrivateTraceEventParser(source).All += _ => { };
using var stdout = new BufferedStream(Console.OpenStandardOutput(), 1 << 16);
var options = new JsonWriterOptions { SkipValidation = true };

if (args[0] == "stats")
{
    var totals = new Dictionary<(string, int, int), (string Name, long Count, long Bytes)>();
    long events = 0;
    source.AllEvents += e =>
    {
        events++;
        var key = (e.ProviderName, (int)e.ID, (int)e.Version);
        totals.TryGetValue(key, out var t);
        totals[key] = (t.Name ?? e.EventName, t.Count + 1, t.Bytes + e.EventDataLength);
    };
    source.Process();
    using var w = new Utf8JsonWriter(stdout, options);
    w.WriteStartObject();
    w.WriteNumber("events", events);
    w.WriteStartArray("byEvent");
    foreach (var ((provider, id, version), t) in totals.OrderBy(p => p.Key))
    {
        w.WriteStartObject();
        w.WriteString("provider", provider);
        w.WriteNumber("eventId", id);
        w.WriteNumber("version", version);
        w.WriteString("name", t.Name);
        w.WriteNumber("count", t.Count);
        w.WriteNumber("payloadBytes", t.Bytes);
        w.WriteEndObject();
    }
    w.WriteEndArray();
    w.WriteEndObject();
    w.Flush();
    stdout.WriteByte((byte)'\n');
    return 0;
}

var line = new Utf8JsonWriter(stdout, options);
void Write(TraceEvent e)
{
    line.WriteStartObject();
    line.WriteString("time", e.TimeStamp.ToUniversalTime());
    line.WriteNumber("relativeMs", e.TimeStampRelativeMSec);
    line.WriteString("provider", e.ProviderName);
    line.WriteNumber("eventId", (int)e.ID);
    line.WriteNumber("version", e.Version);
    line.WriteString("name", e.EventName);
    line.WriteNumber("threadId", e.ThreadID);
    line.WriteNumber("processor", e.ProcessorNumber);
    line.WriteStartObject("payload");
    string[] names = e.PayloadNames ?? Array.Empty<string>();
    for (int i = 0; i < names.Length; i++)
    {
        object? v = e.PayloadValue(i);
        switch (v)
        {
            case null: line.WriteNull(names[i]); break;
            case string s: line.WriteString(names[i], s); break;
            case bool b: line.WriteBoolean(names[i], b); break;
            case int n: line.WriteNumber(names[i], n); break;
            case long n: line.WriteNumber(names[i], n); break;
            case uint n: line.WriteNumber(names[i], n); break;
            case ulong n: line.WriteNumber(names[i], n); break;
            case short n: line.WriteNumber(names[i], n); break;
            case ushort n: line.WriteNumber(names[i], n); break;
            case byte n: line.WriteNumber(names[i], n); break;
            case sbyte n: line.WriteNumber(names[i], n); break;
            case double d: line.WriteNumber(names[i], d); break;
            case float f: line.WriteNumber(names[i], f); break;
            default: line.WriteString(names[i], v.ToString()); break;
        }
    }
    line.WriteEndObject();
    line.WriteEndObject();
    line.Flush();
    stdout.WriteByte((byte)'\n');
    line.Reset(stdout);
}
source.Clr.All += Write;
source.Dynamic.All += Write;
source.UnhandledEvents += Write;
source.Process();
stdout.Flush();
return 0;
