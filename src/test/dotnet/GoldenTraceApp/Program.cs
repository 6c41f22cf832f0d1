// Writes known events for the golden traces of the nettrace parser (see
// nettrace/src/test/resources/golden/regenerate.sh). Run with DOTNET_EnableEventPipe=1: the runtime
// itself writes the trace. Every value, count and order below is asserted by GoldenTraceTest.java;
// change both together.
using System.Diagnostics.Tracing;

namespace GoldenTraceApp;

public enum Color : int
{
    Red = 1,
    Green = 2,
    Blue = 0x7FFF0000,
}

/// <summary>A nested struct for the self-describing (TraceLogging) event.</summary>
[EventData]
public sealed class Point
{
    public int X { get; set; }
    public int Y { get; set; }
    public string Label { get; set; } = "";
}

/// <summary>An array element struct (TraceLogging rejects strings inside arrays).</summary>
[EventData]
public sealed class Pair
{
    public int A { get; set; }
    public short B { get; set; }
}

/// <summary>One manifest event per field type (ids 1 to 18).</summary>
[EventSource(Name = "Clrscope-Golden")]
public sealed class GoldenSource : EventSource
{
    public static readonly GoldenSource Log = new();

    private GoldenSource() : base(EventSourceSettings.EtwManifestEventFormat) { }

    [Event(1, Level = EventLevel.Informational)] public void BoolEvent(bool value) => WriteScalar(1, value);
    [Event(2, Level = EventLevel.Informational)] public void CharEvent(char value) => WriteScalar(2, value);
    [Event(3, Level = EventLevel.Informational)] public void SByteEvent(sbyte value) => WriteScalar(3, value);
    [Event(4, Level = EventLevel.Informational)] public void ByteEvent(byte value) => WriteScalar(4, value);
    [Event(5, Level = EventLevel.Informational)] public void Int16Event(short value) => WriteScalar(5, value);
    [Event(6, Level = EventLevel.Informational)] public void UInt16Event(ushort value) => WriteScalar(6, value);
    [Event(7, Level = EventLevel.Informational)] public void Int32Event(int value) => WriteEvent(7, value);
    [Event(8, Level = EventLevel.Informational)] public void UInt32Event(uint value) => WriteScalar(8, value);
    [Event(9, Level = EventLevel.Informational)] public void Int64Event(long value) => WriteEvent(9, value);
    [Event(10, Level = EventLevel.Informational)] public void UInt64Event(ulong value) => WriteScalar(10, value);
    [Event(11, Level = EventLevel.Informational)] public void SingleEvent(float value) => WriteScalar(11, value);
    [Event(12, Level = EventLevel.Informational)] public void DoubleEvent(double value) => WriteScalar(12, value);
    [Event(13, Level = EventLevel.Informational)] public void DateTimeEvent(DateTime value) => WriteEvent(13, value);
    [Event(14, Level = EventLevel.Informational)] public void GuidEvent(Guid value) => WriteEvent(14, value);
    [Event(15, Level = EventLevel.Informational)] public void StringEvent(string value) => WriteEvent(15, value);
    [Event(16, Level = EventLevel.Informational)] public void BytesEvent(byte[] value) => WriteEvent(16, value);
    [Event(17, Level = EventLevel.Informational)] public void EnumEvent(Color value) => WriteEvent(17, value);

    /// <summary>
    /// Writes one unmanaged value with its exact size: the WriteEvent(int, int) and (int, long)
    /// overloads would widen byte, short, char and uint to 4 or 8 bytes while the metadata says 1, 2
    /// or 4. A .NET bool is written as a 4-byte Win32 BOOL, as EventSource itself does.
    /// </summary>
    [NonEvent]
    private unsafe void WriteScalar<T>(int id, T value)
        where T : unmanaged
    {
        if (typeof(T) == typeof(bool))
        {
            int b = (bool)(object)value ? 1 : 0;
            EventData bd = new() { DataPointer = (IntPtr)(&b), Size = sizeof(int) };
            WriteEventCore(id, 1, &bd);
            return;
        }
        EventData d = new() { DataPointer = (IntPtr)(&value), Size = sizeof(T) };
        WriteEventCore(id, 1, &d);
    }

    [Event(18, Level = EventLevel.Informational)]
    public void MixedEvent(int count, string name, long total, bool ok) => WriteEvent(18, count, name, total, ok);
}

public static class Program
{
    /// <summary>How often each event is written (value i of each table below on round i).</summary>
    public const int Rounds = 3;
    public const int Exceptions = 5;
    public const int InducedGcs = 4;

    public static int Main()
    {
        bool[] bools = [true, false, true];
        char[] chars = ['A', '\u00e9', '\u4e2d'];
        sbyte[] sbytes = [sbyte.MinValue, -1, sbyte.MaxValue];
        byte[] bytes = [0, 0x80, byte.MaxValue];
        short[] shorts = [short.MinValue, -2, short.MaxValue];
        ushort[] ushorts = [0, 0x8000, ushort.MaxValue];
        int[] ints = [int.MinValue, -3, int.MaxValue];
        uint[] uints = [0, 0x80000000, uint.MaxValue];
        long[] longs = [long.MinValue, -4, long.MaxValue];
        ulong[] ulongs = [0, 0x8000000000000000, ulong.MaxValue];
        float[] floats = [-1.5f, 0f, 3.25e10f];
        double[] doubles = [-2.5, Math.PI, double.MaxValue];
        DateTime[] dates =
        [
            new DateTime(2000, 1, 1, 0, 0, 0, DateTimeKind.Utc),
            new DateTime(2024, 2, 29, 12, 34, 56, 789, DateTimeKind.Utc),
            new DateTime(2099, 12, 31, 23, 59, 59, DateTimeKind.Utc),
        ];
        Guid[] guids =
        [
            Guid.Empty,
            new Guid("01234567-89ab-cdef-0123-456789abcdef"),
            new Guid("ffffffff-ffff-ffff-ffff-ffffffffffff"),
        ];
        string[] strings = ["", "hello", "caf\u00e9 \u4e2d\u6587 \U0001F600"];
        byte[][] blobs = [[], [1, 2, 3], [0xFF, 0x00, 0x7F, 0x80]];
        Color[] colors = [Color.Red, Color.Green, Color.Blue];

        var log = GoldenSource.Log;
        var composite = new EventSourceOptions { Level = EventLevel.Informational };
        for (int i = 0; i < Rounds; i++)
        {
            log.BoolEvent(bools[i]);
            log.CharEvent(chars[i]);
            log.SByteEvent(sbytes[i]);
            log.ByteEvent(bytes[i]);
            log.Int16Event(shorts[i]);
            log.UInt16Event(ushorts[i]);
            log.Int32Event(ints[i]);
            log.UInt32Event(uints[i]);
            log.Int64Event(longs[i]);
            log.UInt64Event(ulongs[i]);
            log.SingleEvent(floats[i]);
            log.DoubleEvent(doubles[i]);
            log.DateTimeEvent(dates[i]);
            log.GuidEvent(guids[i]);
            log.StringEvent(strings[i]);
            log.BytesEvent(blobs[i]);
            log.EnumEvent(colors[i]);
            log.MixedEvent(i, "round" + i, 1L << (40 + i), i % 2 == 0);
            log.Write("NestedEvent", composite, new { Id = i, Where = new Point { X = -i, Y = 100 + i, Label = "p" + i } });
            log.Write("IntArrayEvent", composite, new { Ints = Enumerable.Range(0, i + 1).Select(k => k * 10 - 5).ToArray() });
            log.Write("PairArrayEvent", composite, new { Pairs = Enumerable.Range(0, i).Select(k => new Pair { A = k, B = (short)-k }).ToArray() });
            log.Write("DecimalEvent", composite, new { Amount = i switch { 0 => 0m, 1 => 123.456m, _ => -1.5m } });
        }

        int caught = 0;
        for (int i = 0; i < Exceptions; i++)
        {
            try
            {
                throw new InvalidOperationException("golden exception " + i);
            }
            catch (InvalidOperationException)
            {
                caught++;
            }
        }

        for (int i = 0; i < InducedGcs; i++)
        {
            GC.Collect(2, GCCollectionMode.Forced, blocking: true);
        }

        Console.WriteLine($"rounds={Rounds} exceptions={caught} gcs={InducedGcs} runtime={Environment.Version}");
        return caught == Exceptions ? 0 : 1;
    }
}
