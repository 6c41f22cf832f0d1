using System.Text.Json;

namespace TargetApp;

/// <summary>
/// A big heap of small objects for heap-snapshot benchmarks (<c>hold-chunks C S</c>): C arrays of
/// S slots, each slot a <see cref="Cell"/> of its own, all held by one static list, so that the
/// walk has C × S + C objects and as many references.
/// </summary>
internal static class HeldChunks
{
    private static readonly List<object[]> Chunks = new();

    /// <summary>Adds <paramref name="chunks"/> arrays of <paramref name="slots"/> cells.</summary>
    public static void Hold(int chunks, int slots, Action<Action<Utf8JsonWriter>> emit)
    {
        Chunks.Capacity = Chunks.Count + chunks;
        for (int c = 0; c < chunks; c++)
        {
            var chunk = new object[slots];
            for (int s = 0; s < slots; s++)
            {
                chunk[s] = new Cell(s);
            }
            Chunks.Add(chunk);
        }
        emit(w =>
        {
            w.WriteString("event", "hold-chunks");
            w.WriteString("type", typeof(Cell).FullName);
            w.WriteNumber("chunks", Chunks.Count);
            w.WriteNumber("slots", slots);
            w.WriteNumber("cells", (long)Chunks.Count * slots);
        });
    }

    /// <summary>Drops every chunk; how many cells they held.</summary>
    public static long Release()
    {
        long cells = 0;
        foreach (object[] chunk in Chunks)
        {
            cells += chunk.Length;
        }
        Chunks.Clear();
        return cells;
    }
}

/// <summary>One slot of a chunk: 24 bytes (header, method table, an int padded to 8).</summary>
public sealed class Cell
{
    public Cell(int value)
    {
        Value = value;
    }

    public int Value { get; }
}
