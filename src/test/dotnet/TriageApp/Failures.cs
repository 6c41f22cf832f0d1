using System.Runtime.CompilerServices;

namespace TriageApp;

/// <summary>A payment that failed, with the gateway's timeout as its inner exception.</summary>
internal sealed class PaymentException : Exception
{
    internal PaymentException(string message, Exception inner) : base(message, inner) { }
}

/// <summary>
/// <c>exception</c>: a thread, <c>payment-retry</c>, that caught a <see cref="PaymentException"/>
/// (its inner a <see cref="TimeoutException"/>) and then waits: the exception it last threw.
/// <c>crash</c>: the same exception thrown on <c>payment-worker</c> and caught by nobody, which ends
/// the process (with <c>DOTNET_DbgEnableMiniDump=1</c> the runtime writes a core first).
/// </summary>
internal static class Failures
{
    internal const string Message = "card declined for order 42";
    internal const string InnerMessage = "the payment gateway did not answer in 30 s";

    private static readonly ManualResetEventSlim Never = new();

    internal static void CatchAndHold()
    {
        int tid = 0;
        var caught = new ManualResetEventSlim();
        var thread = new Thread(() =>
        {
            tid = Program.Tid();
            try
            {
                Charge();
            }
            catch (PaymentException)
            {
                caught.Set();
                Never.Wait();
            }
        })
        { IsBackground = true, Name = "payment-retry" };
        thread.Start();
        caught.Wait();
        Program.WaitBlocked(thread);
        Emit("exception", thread.Name!, tid);
    }

    internal static void Crash()
    {
        var thread = new Thread(() =>
        {
            Emit("crash", "payment-worker", Program.Tid());
            // Time for the answer to reach the test before the process dies.
            Thread.Sleep(200);
            Charge();
        })
        { Name = "payment-worker" };
        thread.Start();
        thread.Join();
    }

    private static void Emit(string what, string name, int tid)
    {
        Program.Emit(w =>
        {
            w.WriteString("event", what);
            w.WriteString("thread", name);
            w.WriteNumber("tid", tid);
            w.WriteString("type", typeof(PaymentException).FullName);
            w.WriteString("message", Message);
            w.WriteString("throwMethod", "TriageApp.Failures.Charge");
            w.WriteString("innerType", typeof(TimeoutException).FullName);
            w.WriteString("innerMessage", InnerMessage);
            w.WriteString("innerThrowMethod", "TriageApp.Failures.CallGateway");
        });
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Charge()
    {
        try
        {
            CallGateway();
        }
        catch (TimeoutException e)
        {
            throw new PaymentException(Message, e); // line: charge-throws
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void CallGateway()
    {
        throw new TimeoutException(InnerMessage); // line: gateway-throws
    }
}
