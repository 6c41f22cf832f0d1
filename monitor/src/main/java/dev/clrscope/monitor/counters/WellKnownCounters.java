package dev.clrscope.monitor.counters;

import java.util.List;

/**
 * The providers most .NET processes publish, with their instruments: what {@code counters list}
 * prints without a process. System.Runtime's two forms (the Meter of .NET 9 and later, and the
 * EventCounters of every version) are as the .NET 10 runtime announced them on a real session
 * (BeginInstrumentReporting, EventCounters payloads); the ASP.NET Core and networking Meters are
 * taken from their documentation and are only published by processes that use them.
 */
public final class WellKnownCounters {
  /**
   * One provider's catalogue.
   *
   * @param provider the Meter or EventSource name
   * @param source METER or EVENT_COUNTERS
   * @param since the .NET versions that publish it this way, for display
   * @param instruments its instruments
   */
  public record Provider(
      String provider, CounterSource source, String since, List<Instrument> instruments) {}

  /** The name of the runtime's own provider, and the default of {@code --counters}. */
  public static final String SYSTEM_RUNTIME = "System.Runtime";

  private static final List<Provider> PROVIDERS =
      List.of(
          new Provider(
              SYSTEM_RUNTIME,
              CounterSource.METER,
              ".NET 9+",
              List.of(
                  m(
                      "dotnet.assembly.count",
                      InstrumentType.OBSERVABLE_UP_DOWN_COUNTER,
                      "{assembly}",
                      "The number of .NET assemblies that are currently loaded."),
                  m(
                      "dotnet.exceptions",
                      InstrumentType.COUNTER,
                      "{exception}",
                      "The number of exceptions that have been thrown in managed code."),
                  m(
                      "dotnet.gc.collections",
                      InstrumentType.OBSERVABLE_COUNTER,
                      "{collection}",
                      "The number of garbage collections that have occurred since the process has started."),
                  m(
                      "dotnet.gc.heap.total_allocated",
                      InstrumentType.OBSERVABLE_COUNTER,
                      "By",
                      "The approximate number of bytes allocated on the managed GC heap since the process has started. The returned value does not include any native allocations."),
                  m(
                      "dotnet.gc.last_collection.heap.fragmentation.size",
                      InstrumentType.OBSERVABLE_UP_DOWN_COUNTER,
                      "By",
                      "The heap fragmentation, as observed during the latest garbage collection."),
                  m(
                      "dotnet.gc.last_collection.heap.size",
                      InstrumentType.OBSERVABLE_UP_DOWN_COUNTER,
                      "By",
                      "The managed GC heap size (including fragmentation), as observed during the latest garbage collection."),
                  m(
                      "dotnet.gc.last_collection.memory.committed_size",
                      InstrumentType.OBSERVABLE_UP_DOWN_COUNTER,
                      "By",
                      "The amount of committed virtual memory in use by the .NET GC, as observed during the latest garbage collection."),
                  m(
                      "dotnet.gc.pause.time",
                      InstrumentType.OBSERVABLE_COUNTER,
                      "s",
                      "The total amount of time paused in GC since the process has started."),
                  m(
                      "dotnet.jit.compilation.time",
                      InstrumentType.OBSERVABLE_COUNTER,
                      "s",
                      "The number of times the JIT compiler (re)compiled methods since the process has started."),
                  m(
                      "dotnet.jit.compiled_il.size",
                      InstrumentType.OBSERVABLE_COUNTER,
                      "By",
                      "Count of bytes of intermediate language that have been compiled since the process has started."),
                  m(
                      "dotnet.jit.compiled_methods",
                      InstrumentType.OBSERVABLE_COUNTER,
                      "{method}",
                      "The number of times the JIT compiler (re)compiled methods since the process has started."),
                  m(
                      "dotnet.monitor.lock_contentions",
                      InstrumentType.OBSERVABLE_COUNTER,
                      "{contention}",
                      "The number of times there was contention when trying to acquire a monitor lock since the process has started."),
                  m(
                      "dotnet.process.cpu.count",
                      InstrumentType.OBSERVABLE_UP_DOWN_COUNTER,
                      "{cpu}",
                      "The number of processors available to the process."),
                  m(
                      "dotnet.process.cpu.time",
                      InstrumentType.OBSERVABLE_COUNTER,
                      "s",
                      "CPU time used by the process."),
                  m(
                      "dotnet.process.memory.working_set",
                      InstrumentType.OBSERVABLE_UP_DOWN_COUNTER,
                      "By",
                      "The number of bytes of physical memory mapped to the process context."),
                  m(
                      "dotnet.thread_pool.queue.length",
                      InstrumentType.OBSERVABLE_COUNTER,
                      "{work_item}",
                      "The number of work items that are currently queued to be processed by the thread pool."),
                  m(
                      "dotnet.thread_pool.thread.count",
                      InstrumentType.OBSERVABLE_COUNTER,
                      "{thread}",
                      "The number of thread pool threads that currently exist."),
                  m(
                      "dotnet.thread_pool.work_item.count",
                      InstrumentType.OBSERVABLE_COUNTER,
                      "{work_item}",
                      "The number of work items that the thread pool has completed since the process has started."),
                  m(
                      "dotnet.timer.count",
                      InstrumentType.OBSERVABLE_UP_DOWN_COUNTER,
                      "{timer}",
                      "The number of timer instances that are currently active. An active timer is registered to tick at some point in the future and has not yet been canceled."))),
          new Provider(
              SYSTEM_RUNTIME,
              CounterSource.EVENT_COUNTERS,
              ".NET Core 3.0+",
              List.of(
                  e(
                      "active-timer-count",
                      "Number of Active Timers",
                      InstrumentType.EVENT_COUNTER,
                      ""),
                  e(
                      "alloc-rate",
                      "Allocation Rate",
                      InstrumentType.INCREMENTING_EVENT_COUNTER,
                      "B"),
                  e(
                      "assembly-count",
                      "Number of Assemblies Loaded",
                      InstrumentType.EVENT_COUNTER,
                      ""),
                  e("cpu-usage", "CPU Usage", InstrumentType.EVENT_COUNTER, "%"),
                  e(
                      "exception-count",
                      "Exception Count",
                      InstrumentType.INCREMENTING_EVENT_COUNTER,
                      ""),
                  e("gc-committed", "GC Committed Bytes", InstrumentType.EVENT_COUNTER, "MB"),
                  e("gc-fragmentation", "GC Fragmentation", InstrumentType.EVENT_COUNTER, "%"),
                  e("gc-heap-size", "GC Heap Size", InstrumentType.EVENT_COUNTER, "MB"),
                  e("gen-0-gc-budget", "Gen 0 GC Budget", InstrumentType.EVENT_COUNTER, "MB"),
                  e(
                      "gen-0-gc-count",
                      "Gen 0 GC Count",
                      InstrumentType.INCREMENTING_EVENT_COUNTER,
                      ""),
                  e("gen-0-size", "Gen 0 Size", InstrumentType.EVENT_COUNTER, "B"),
                  e(
                      "gen-1-gc-count",
                      "Gen 1 GC Count",
                      InstrumentType.INCREMENTING_EVENT_COUNTER,
                      ""),
                  e("gen-1-size", "Gen 1 Size", InstrumentType.EVENT_COUNTER, "B"),
                  e(
                      "gen-2-gc-count",
                      "Gen 2 GC Count",
                      InstrumentType.INCREMENTING_EVENT_COUNTER,
                      ""),
                  e("gen-2-size", "Gen 2 Size", InstrumentType.EVENT_COUNTER, "B"),
                  e("il-bytes-jitted", "IL Bytes Jitted", InstrumentType.EVENT_COUNTER, "B"),
                  e("loh-size", "LOH Size", InstrumentType.EVENT_COUNTER, "B"),
                  e(
                      "methods-jitted-count",
                      "Number of Methods Jitted",
                      InstrumentType.EVENT_COUNTER,
                      ""),
                  e(
                      "monitor-lock-contention-count",
                      "Monitor Lock Contention Count",
                      InstrumentType.INCREMENTING_EVENT_COUNTER,
                      ""),
                  e("poh-size", "POH (Pinned Object Heap) Size", InstrumentType.EVENT_COUNTER, "B"),
                  e(
                      "threadpool-completed-items-count",
                      "ThreadPool Completed Work Item Count",
                      InstrumentType.INCREMENTING_EVENT_COUNTER,
                      ""),
                  e(
                      "threadpool-queue-length",
                      "ThreadPool Queue Length",
                      InstrumentType.EVENT_COUNTER,
                      ""),
                  e(
                      "threadpool-thread-count",
                      "ThreadPool Thread Count",
                      InstrumentType.EVENT_COUNTER,
                      ""),
                  e("time-in-gc", "% Time in GC since last GC", InstrumentType.EVENT_COUNTER, "%"),
                  e(
                      "time-in-jit",
                      "Time spent in JIT",
                      InstrumentType.INCREMENTING_EVENT_COUNTER,
                      "ms"),
                  e(
                      "total-pause-time-by-gc",
                      "Time paused by GC",
                      InstrumentType.INCREMENTING_EVENT_COUNTER,
                      "ms"),
                  e("working-set", "Working Set", InstrumentType.EVENT_COUNTER, "MB"))),
          new Provider(
              "Microsoft.AspNetCore.Hosting",
              CounterSource.METER,
              ".NET 8+",
              List.of(
                  w(
                      "Microsoft.AspNetCore.Hosting",
                      "http.server.request.duration",
                      InstrumentType.HISTOGRAM,
                      "s",
                      "Duration of HTTP server requests."),
                  w(
                      "Microsoft.AspNetCore.Hosting",
                      "http.server.active_requests",
                      InstrumentType.UP_DOWN_COUNTER,
                      "{request}",
                      "Number of active HTTP server requests."))),
          new Provider(
              "Microsoft.AspNetCore.Server.Kestrel",
              CounterSource.METER,
              ".NET 8+",
              List.of(
                  w(
                      "Microsoft.AspNetCore.Server.Kestrel",
                      "kestrel.active_connections",
                      InstrumentType.UP_DOWN_COUNTER,
                      "{connection}",
                      "Number of connections that are currently active on the server."),
                  w(
                      "Microsoft.AspNetCore.Server.Kestrel",
                      "kestrel.connection.duration",
                      InstrumentType.HISTOGRAM,
                      "s",
                      "The duration of connections on the server."),
                  w(
                      "Microsoft.AspNetCore.Server.Kestrel",
                      "kestrel.queued_connections",
                      InstrumentType.UP_DOWN_COUNTER,
                      "{connection}",
                      "Number of connections that are currently queued and are waiting to start."),
                  w(
                      "Microsoft.AspNetCore.Server.Kestrel",
                      "kestrel.rejected_connections",
                      InstrumentType.COUNTER,
                      "{connection}",
                      "Number of connections rejected by the server."),
                  w(
                      "Microsoft.AspNetCore.Server.Kestrel",
                      "kestrel.tls_handshake.duration",
                      InstrumentType.HISTOGRAM,
                      "s",
                      "The duration of TLS handshakes on the server."))),
          new Provider(
              "System.Net.Http",
              CounterSource.METER,
              ".NET 8+",
              List.of(
                  w(
                      "System.Net.Http",
                      "http.client.request.duration",
                      InstrumentType.HISTOGRAM,
                      "s",
                      "Duration of HTTP client requests."),
                  w(
                      "System.Net.Http",
                      "http.client.active_requests",
                      InstrumentType.UP_DOWN_COUNTER,
                      "{request}",
                      "Number of outbound HTTP requests that are currently active on the client."),
                  w(
                      "System.Net.Http",
                      "http.client.open_connections",
                      InstrumentType.UP_DOWN_COUNTER,
                      "{connection}",
                      "Number of outbound HTTP connections that are currently active or idle on the client."),
                  w(
                      "System.Net.Http",
                      "http.client.connection.duration",
                      InstrumentType.HISTOGRAM,
                      "s",
                      "The duration of successfully established outbound HTTP connections."),
                  w(
                      "System.Net.Http",
                      "http.client.request.time_in_queue",
                      InstrumentType.HISTOGRAM,
                      "s",
                      "The amount of time requests spent on a queue waiting for an available connection."))),
          new Provider(
              "System.Net.NameResolution",
              CounterSource.METER,
              ".NET 8+",
              List.of(
                  w(
                      "System.Net.NameResolution",
                      "dns.lookup.duration",
                      InstrumentType.HISTOGRAM,
                      "s",
                      "Measures the time taken to perform a DNS lookup."))));

  private WellKnownCounters() {}

  /** Every catalogued provider, System.Runtime first. */
  public static List<Provider> providers() {
    return PROVIDERS;
  }

  private static Instrument m(String name, InstrumentType type, String unit, String description) {
    return new Instrument(SYSTEM_RUNTIME, CounterSource.METER, name, name, type, unit, description);
  }

  private static Instrument e(String name, String displayName, InstrumentType type, String unit) {
    return new Instrument(
        SYSTEM_RUNTIME, CounterSource.EVENT_COUNTERS, name, displayName, type, unit, displayName);
  }

  private static Instrument w(
      String provider, String name, InstrumentType type, String unit, String description) {
    return new Instrument(provider, CounterSource.METER, name, name, type, unit, description);
  }
}
