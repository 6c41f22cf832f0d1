using System.Reflection;
using System.Runtime.CompilerServices;
using System.Text.Json;

namespace DebugAsyncApp;

/// <summary>
/// A debug build's async methods in flight: <c>pending</c> starts <see cref="OuterAsync"/>, which
/// awaits <see cref="InnerAsync"/>, which awaits a task that never completes; both are suspended
/// at their first await, their state machines classes of their own. The protocol is TargetApp's: a
/// ready line, then one JSON answer per command line.
/// </summary>
internal static class Program
{
    private static readonly TaskCompletionSource<int> Gate = new();
    private static Task<int>? Pending;

    private static int Main()
    {
        Emit(new Dictionary<string, object?>
        {
            ["event"] = "ready",
            ["pid"] = Environment.ProcessId,
            ["runtimeVersion"] = Environment.Version.ToString(),
            ["entrypoint"] = Assembly.GetEntryAssembly()?.GetName().Name,
        });
        string? line;
        while ((line = Console.In.ReadLine()) != null)
        {
            switch (line.Trim())
            {
                case "ping":
                    Emit(new Dictionary<string, object?> { ["event"] = "pong" });
                    break;
                case "pending":
                    Pending = OuterAsync();
                    Emit(new Dictionary<string, object?>
                    {
                        ["event"] = "pending",
                        ["outerMethod"] = "DebugAsyncApp.Program.OuterAsync",
                        ["innerMethod"] = "DebugAsyncApp.Program.InnerAsync",
                        ["stateMachineIsClass"] = typeof(Program).GetNestedTypes(BindingFlags.NonPublic)
                            .Where(t => t.Name.StartsWith("<OuterAsync>", StringComparison.Ordinal))
                            .All(t => t.IsClass),
                        ["completed"] = Pending.IsCompleted,
                    });
                    break;
                default:
                    Emit(new Dictionary<string, object?> { ["event"] = "error", ["command"] = line, ["message"] = "unknown command" });
                    break;
            }
        }
        return 0;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static async Task<int> OuterAsync()
    {
        int inner = await InnerAsync();
        return inner + 1;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static async Task<int> InnerAsync()
    {
        int value = await Gate.Task;
        return value * 2;
    }

    private static void Emit(Dictionary<string, object?> members)
    {
        Console.Out.WriteLine(JsonSerializer.Serialize(members));
        Console.Out.Flush();
    }
}
