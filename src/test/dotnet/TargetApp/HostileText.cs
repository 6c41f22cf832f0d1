using System.Runtime.CompilerServices;

namespace TargetApp;

/// <summary>
/// Text a terminal would obey rather than print, where a target puts text: a string on its heap, a
/// thread's name and an exception's message. clrscope shows it, escaped, in a table and in CSV.
/// </summary>
internal static class HostileText
{
    /// <summary>What starts the text, to find it among the heap's strings.</summary>
    internal const string Marker = "clrscope-hostile:";

    /// <summary>
    /// An OSC that retitles the window, BEL, an erase of the screen, a right-to-left override, an
    /// isolate, a C1 CSI and DEL.
    /// </summary>
    internal const string Text =
        Marker + "\u001b]0;owned\u0007\u001b[2J\u202egnirts\u2066x\u2069\u009b31m\u007fend";

    /// <summary>The text made at run time (not the interned literal), held from a static.</summary>
    internal static string? Held;

    /// <summary>A thread named with the text, alive while the app is.</summary>
    internal static Thread? Named;

    /// <summary>
    /// Holds the text, names a thread with it, and throws it inside a FormatException from
    /// <c>int.Parse</c> (the framework throws on the user's behalf), caught. Answers with the text,
    /// the message and the user's method that threw.
    /// </summary>
    internal static void Run()
    {
        Held = new string(Text.AsSpan());
        Named = new Thread(() => Thread.Sleep(Timeout.Infinite)) { IsBackground = true, Name = Held };
        Named.Start();
        string message = "";
        try
        {
            Parse(Held);
        }
        catch (FormatException e)
        {
            message = e.Message;
        }
        Program.Emit(w =>
        {
            w.WriteString("event", "hostile-text");
            w.WriteString("text", Held);
            w.WriteString("message", message);
            w.WriteString("holderType", typeof(HostileText).FullName);
            w.WriteString("throwSite", "TargetApp.HostileText.Parse");
        });
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int Parse(string s)
    {
        return int.Parse(s); // line: hostile-parse
    }
}
