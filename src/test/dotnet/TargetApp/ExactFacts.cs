using System.Collections.Concurrent;

namespace TargetApp;

/// <summary>
/// <c>exact-facts</c>: what every runtime must read exactly (issue 32). A
/// <see cref="ConcurrentQueue{T}"/> of <see cref="QueueItems"/> numbers spread over its segments,
/// the first <see cref="QueueTaken"/> of those enqueued already taken out; a
/// <see cref="ConcurrentDictionary{TKey, TValue}"/> of <see cref="RegionCount"/> regions, each a
/// <c>Dictionary&lt;string, ExactOrder&gt;</c> of capacity <see cref="RegionCapacity"/> holding
/// <see cref="OrdersPerRegion"/> orders (the generic type every command must name alike); a
/// <c>List&lt;ExactOrder&gt;</c> of capacity <see cref="ListCapacity"/> holding
/// <see cref="ListedOrders"/> (its <c>_items</c> is an <c>ExactOrder[]</c>, however the runtime
/// shares the list's code); a chain of <see cref="NodeCount"/> <see cref="Node"/>, a type nested in
/// this one. Orders have value-type fields (an int, a struct, a bool) beside references.
/// Once per process.
/// </summary>
internal static class ExactFacts
{
    internal const int QueueItems = 1000;
    internal const int QueueTaken = 50;
    internal const int RegionCount = 3;
    internal const int RegionCapacity = 100;
    internal const int OrdersPerRegion = 10;
    internal const int ListCapacity = 64;
    internal const int ListedOrders = 40;
    internal const int NodeCount = 300;
    internal const int PayloadBytes = 8_000;

    // The roots the tests name.
    private static ConcurrentQueue<int>? Numbers;
    private static ConcurrentDictionary<string, Dictionary<string, ExactOrder>>? Regions;
    private static List<ExactOrder>? Orders;
    private static Node? Chain;

    /// <summary>A type nested in another: a live walk and a core must name it alike.</summary>
    internal sealed class Node
    {
        internal Node? Next;
        internal int Index;
    }

    internal static void Make()
    {
        if (Numbers != null)
        {
            throw new ArgumentException("exact facts are made once per process");
        }
        var numbers = new ConcurrentQueue<int>();
        for (int i = 0; i < QueueItems + QueueTaken; i++)
        {
            numbers.Enqueue(i);
        }
        for (int i = 0; i < QueueTaken; i++)
        {
            numbers.TryDequeue(out _);
        }
        Numbers = numbers;

        var regions = new ConcurrentDictionary<string, Dictionary<string, ExactOrder>>();
        int id = 0;
        for (int r = 0; r < RegionCount; r++)
        {
            var orders = new Dictionary<string, ExactOrder>(RegionCapacity);
            for (int i = 0; i < OrdersPerRegion; i++)
            {
                var order = NewOrder(id++);
                orders[order.Customer] = order;
            }
            regions["region-" + r] = orders;
        }
        Regions = regions;

        var listed = new List<ExactOrder>(ListCapacity);
        for (int i = 0; i < ListedOrders; i++)
        {
            listed.Add(NewOrder(id++));
        }
        Orders = listed;

        Node? chain = null;
        for (int i = NodeCount - 1; i >= 0; i--)
        {
            chain = new Node { Next = chain, Index = i };
        }
        Chain = chain;

        Program.Emit(w =>
        {
            w.WriteString("event", "exact-facts");
            w.WriteString("holderType", typeof(ExactFacts).FullName);
            w.WriteString("queueField", nameof(Numbers));
            w.WriteNumber("queueItems", QueueItems);
            w.WriteNumber("queueFirst", QueueTaken);
            w.WriteString("regionsField", nameof(Regions));
            w.WriteNumber("regions", RegionCount);
            w.WriteString("regionType", "System.Collections.Generic.Dictionary<System.String, TargetApp.ExactOrder>");
            w.WriteNumber("regionCapacity", RegionCapacity);
            w.WriteNumber("ordersPerRegion", OrdersPerRegion);
            w.WriteString("ordersField", nameof(Orders));
            w.WriteString("listType", "System.Collections.Generic.List<TargetApp.ExactOrder>");
            w.WriteNumber("listCapacity", ListCapacity);
            w.WriteNumber("listedOrders", ListedOrders);
            w.WriteString("orderType", typeof(ExactOrder).FullName);
            w.WriteString("nodeType", typeof(Node).FullName);
            w.WriteNumber("nodes", NodeCount);
            w.WriteNumber("payloadBytes", PayloadBytes);
        });
    }

    private static ExactOrder NewOrder(int id) => new ExactOrder
    {
        Id = id,
        Amount = new Money { Cents = 100L * id + 99, Currency = 978 },
        Paid = id % 2 == 0,
        Customer = "customer-" + id,
        Payload = new byte[PayloadBytes],
    };
}

/// <summary>An amount of money: a struct, held inline in an order.</summary>
internal struct Money
{
    public long Cents;
    public int Currency;
}

/// <summary>An order of <c>exact-facts</c>: value-type fields beside references.</summary>
internal sealed class ExactOrder
{
    public int Id;
    public Money Amount;
    public bool Paid;
    public string Customer = "";
    public byte[] Payload = Array.Empty<byte>();
}
