using System.Diagnostics;
using System.Net;

namespace TargetApp;

/// <summary>
/// HttpClient traffic the <c>http</c> monitor is checked against: requests to an HttpListener of
/// this process on localhost, so that every request's URL, status and redirect is known here.
/// </summary>
internal static class HttpTraffic
{
    /// <summary>The secret in every request's query string, which the monitor must not show.</summary>
    internal const string Secret = "s3cret";

    private static readonly HttpClient Client = new();
    private static HttpListener? listener;
    private static string? prefix;

    /// <summary>
    /// N requests, one after the other: N - 2 GETs of <c>/ok?i=K&amp;token=…</c> (200), one of
    /// <c>/missing</c> (404) and one of <c>/redirect</c>, which answers 302 to <c>/ok?i=redirected</c>
    /// (followed by HttpClient). Answers with every request's URL and final status.
    /// </summary>
    internal static void Requests(int n)
    {
        if (n < 2)
        {
            throw new ArgumentException("http needs at least 2 requests (one 404, one redirect)");
        }
        string root = Listen();
        var urls = new List<string>();
        for (int i = 0; i < n - 2; i++)
        {
            urls.Add($"{root}ok?i={i}&token={Secret}");
        }
        urls.Add($"{root}missing");
        urls.Add($"{root}redirect");
        var statuses = new List<int>();
        foreach (string url in urls)
        {
            using HttpResponseMessage response = Client.GetAsync(url).GetAwaiter().GetResult();
            response.Content.ReadAsByteArrayAsync().GetAwaiter().GetResult();
            statuses.Add((int)response.StatusCode);
        }
        Program.Emit(w =>
        {
            w.WriteString("event", "http");
            w.WriteString("root", root);
            w.WriteStartArray("requests");
            for (int i = 0; i < urls.Count; i++)
            {
                w.WriteStartObject();
                w.WriteString("url", urls[i]);
                w.WriteNumber("status", statuses[i]);
                w.WriteEndObject();
            }
            w.WriteEndArray();
            w.WriteString("redirectFrom", $"{root}redirect");
            w.WriteString("redirectTo", $"{root}ok?i=redirected");
        });
    }

    /// <summary>
    /// One GET of a port of localhost nobody listens on (a port bound and let go): it fails to
    /// connect. Answers with the URL and the exception's message.
    /// </summary>
    internal static void Failing()
    {
        var probe = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        int port = ((IPEndPoint)probe.LocalEndpoint).Port;
        probe.Stop();
        string url = $"http://127.0.0.1:{port}/closed";
        string message;
        try
        {
            Client.GetAsync(url).GetAwaiter().GetResult().Dispose();
            throw new ArgumentException($"{url} answered");
        }
        catch (HttpRequestException e)
        {
            message = e.Message;
        }
        Program.Emit(w =>
        {
            w.WriteString("event", "http-fail");
            w.WriteString("url", url);
            w.WriteString("message", message);
        });
    }

    /// <summary>
    /// N GETs of a slow server, one after the other: each of <c>/slow/K</c> (K = 1000 + i), then one
    /// of <c>/items/GUID</c>, answered 200 after the server waited MS milliseconds. Answers with the
    /// root, the URLs and the wait.
    /// </summary>
    internal static void Slow(int n, int ms)
    {
        string root = Listen();
        slowMs = ms;
        var urls = new List<string>();
        for (int i = 0; i < n; i++)
        {
            urls.Add($"{root}slow/{1000 + i}");
        }
        urls.Add($"{root}items/{Guid.NewGuid()}");
        foreach (string url in urls)
        {
            using HttpResponseMessage response = Client.GetAsync(url).GetAwaiter().GetResult();
            response.Content.ReadAsByteArrayAsync().GetAwaiter().GetResult();
        }
        Program.Emit(w =>
        {
            w.WriteString("event", "http-slow");
            w.WriteString("root", root);
            w.WriteNumber("waitMs", ms);
            w.WriteStartArray("urls");
            foreach (string url in urls)
            {
                w.WriteStringValue(url);
            }
            w.WriteEndArray();
        });
    }

    /// <summary>How long the server waits before it answers a slow request.</summary>
    private static volatile int slowMs;

    /// <summary>
    /// For benchmarks: about RATE requests a second (GETs of <c>/ok</c>) for SECONDS seconds.
    /// </summary>
    internal static void Load(int rate, int seconds)
    {
        string root = Listen();
        var clock = Stopwatch.StartNew();
        long sent = 0;
        long total = (long)rate * seconds;
        while (sent < total)
        {
            using HttpResponseMessage response = Client.GetAsync($"{root}ok?i={sent}").GetAwaiter().GetResult();
            response.Content.ReadAsByteArrayAsync().GetAwaiter().GetResult();
            sent++;
            // Paced: the sent-th request is due at sent / rate seconds.
            long aheadMs = sent * 1000 / rate - clock.ElapsedMilliseconds;
            if (aheadMs > 0)
            {
                Thread.Sleep((int)aheadMs);
            }
        }
        Program.Emit(w =>
        {
            w.WriteString("event", "http-load");
            w.WriteNumber("requests", sent);
            w.WriteNumber("seconds", clock.Elapsed.TotalSeconds);
        });
    }

    /// <summary>Starts the listener once, on a free port of localhost; returns its root URL.</summary>
    private static string Listen()
    {
        if (prefix != null)
        {
            return prefix;
        }
        for (int attempt = 0; ; attempt++)
        {
            // A free port: bind port 0, read the port, let go, and listen there (retried if taken).
            var probe = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0);
            probe.Start();
            int port = ((IPEndPoint)probe.LocalEndpoint).Port;
            probe.Stop();
            string candidate = $"http://localhost:{port}/";
            var l = new HttpListener();
            l.Prefixes.Add(candidate);
            try
            {
                l.Start();
            }
            catch (HttpListenerException) when (attempt < 5)
            {
                continue;
            }
            listener = l;
            prefix = candidate;
            var serving = new Thread(Serve) { IsBackground = true, Name = "http-listener" };
            serving.Start();
            return candidate;
        }
    }

    private static void Serve()
    {
        while (true)
        {
            HttpListenerContext context = listener!.GetContext();
            HttpListenerResponse response = context.Response;
            string path = context.Request.Url!.AbsolutePath;
            if (path == "/redirect")
            {
                response.StatusCode = 302;
                response.RedirectLocation = $"{prefix}ok?i=redirected";
            }
            else if (path.StartsWith("/slow/") || path.StartsWith("/items/"))
            {
                // The server's share of the request: nothing is sent until it has waited.
                Thread.Sleep(slowMs);
                response.StatusCode = 200;
                byte[] body = "slow"u8.ToArray();
                response.ContentLength64 = body.Length;
                response.OutputStream.Write(body);
            }
            else if (path == "/ok")
            {
                response.StatusCode = 200;
                byte[] body = "ok"u8.ToArray();
                // Known length: headers and body go out together (chunked, the body's packet
                // waits out the client's delayed ACK, ~40 ms a request).
                response.ContentLength64 = body.Length;
                response.OutputStream.Write(body);
            }
            else
            {
                response.StatusCode = 404;
            }
            response.Close();
        }
    }
}
