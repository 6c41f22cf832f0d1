using System.Buffers;
using System.Globalization;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json;

namespace TestApps;

/// <summary>
/// The test apps' side of the protocol the end-to-end tests speak (TargetApp/README.md): every
/// stdout line one JSON object with an "event" member, the first the ready line, then one command
/// a line on stdin. Linked into each app (its .csproj), so the line the Java side's ReadyInfo reads
/// is written in one place.
/// </summary>
internal static class Protocol
{
    private static readonly object StdoutLock = new();

    /// <summary>One JSON object as one whole line, even when threads write at once.</summary>
    internal static void Emit(Action<Utf8JsonWriter> body)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            body(writer);
            writer.WriteEndObject();
        }
        string line = Encoding.UTF8.GetString(buffer.WrittenSpan);
        lock (StdoutLock)
        {
            Console.Out.WriteLine(line);
            Console.Out.Flush();
        }
    }

    /// <summary>
    /// The ready line: what the process says of itself, for the tests to hold a tool's report
    /// against, then <paramref name="more"/>, an app's own facts.
    /// </summary>
    internal static void EmitReady(string[] args, Action<Utf8JsonWriter>? more = null)
    {
        Emit(w =>
        {
            w.WriteString("event", "ready");
            w.WriteNumber("pid", Environment.ProcessId);
            w.WriteString("commandLine", Environment.CommandLine);
            w.WriteStartArray("args");
            foreach (string arg in args)
            {
                w.WriteStringValue(arg);
            }
            w.WriteEndArray();
            w.WriteString("runtimeVersion", Environment.Version.ToString());
            w.WriteString("frameworkDescription", RuntimeInformation.FrameworkDescription);
            w.WriteString("entrypoint", Assembly.GetEntryAssembly()?.GetName().Name);
            w.WriteString("assemblyPath", Assembly.GetEntryAssembly()?.Location);
            w.WriteString("rid", RuntimeInformation.RuntimeIdentifier);
            w.WriteString("os", OsName());
            w.WriteString("osDescription", RuntimeInformation.OSDescription);
            // Lower case, as the runtime itself reports it over the diagnostic IPC ("x64", "arm64").
            w.WriteString("arch", RuntimeInformation.ProcessArchitecture.ToString().ToLowerInvariant());
            w.WriteString("processPath", Environment.ProcessPath);
            more?.Invoke(w);
        });
    }

    /// <summary>Each line of stdin, trimmed, to <paramref name="execute"/>, blank ones skipped, until stdin ends.</summary>
    internal static void ServeCommands(Action<string> execute)
    {
        string? line;
        while ((line = Console.In.ReadLine()) != null)
        {
            line = line.Trim();
            if (line.Length > 0)
            {
                execute(line);
            }
        }
    }

    /// <summary>The operating system named as the runtime names it in its process info.</summary>
    private static string OsName()
    {
        if (OperatingSystem.IsWindows()) return "Windows";
        if (OperatingSystem.IsLinux()) return "Linux";
        if (OperatingSystem.IsMacOS()) return "macOS";
        if (OperatingSystem.IsFreeBSD()) return "FreeBSD";
        return RuntimeInformation.OSDescription;
    }
}
