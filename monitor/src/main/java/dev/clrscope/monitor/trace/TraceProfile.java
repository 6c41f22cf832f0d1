package dev.clrscope.monitor.trace;

import static dev.clrscope.monitor.RuntimeKeyword.ASSEMBLY_LOADER;
import static dev.clrscope.monitor.RuntimeKeyword.COMPILATION;
import static dev.clrscope.monitor.RuntimeKeyword.EXCEPTION;
import static dev.clrscope.monitor.RuntimeKeyword.GC;
import static dev.clrscope.monitor.RuntimeKeyword.GC_HANDLE;
import static dev.clrscope.monitor.RuntimeKeyword.JIT;
import static dev.clrscope.monitor.RuntimeKeyword.JITTED_METHOD_IL_TO_NATIVE_MAP;
import static dev.clrscope.monitor.RuntimeKeyword.LOADER;
import static dev.clrscope.monitor.RuntimeKeyword.THREADING;
import static dev.clrscope.monitor.RuntimeKeyword.maskOf;

import dev.clrscope.ipc.session.EventLevel;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A named set of providers for {@code trace collect --profile}, as dotnet-trace defines them.
 *
 * @param name the profile's name
 * @param description one line for {@code trace list-profiles}
 * @param providers the providers it enables
 * @param rundownKeyword the rundown keywords it asks for, or {@code null} for the default rundown
 */
public record TraceProfile(
    String name, String description, List<EventPipeProvider> providers, Long rundownKeyword) {

  private static final int INFORMATIONAL = EventLevel.INFORMATIONAL.value();
  private static final int VERBOSE = EventLevel.VERBOSE.value();

  /** The SampleProfiler provider: a stack of every managed thread about every millisecond. */
  public static final String SAMPLE_PROFILER = RuntimeEvents.SAMPLE_PROFILER_PROVIDER;

  /**
   * The keywords dotnet-trace asks SampleProfiler for: none are named, so it sends its client
   * library's default for a provider given without keywords, 0xF00000000000 (the event-source
   * keywords every EventSource reserves).
   */
  public static final long SAMPLE_PROFILER_KEYWORDS = 0xF00000000000L;

  /** dotnet-trace's FilterAndPayloadSpecs for the database profile: ADO.NET and EF Core. */
  private static final String DATABASE_SPECS =
      "SqlClientDiagnosticListener/System.Data.SqlClient.WriteCommandBefore@Activity1Start:-Command;"
          + "Command.CommandText;ConnectionId;Operation;Command.Connection.ServerVersion;"
          + "Command.CommandTimeout;Command.CommandType;Command.Connection.ConnectionString;"
          + "Command.Connection.Database;Command.Connection.DataSource;"
          + "Command.Connection.PacketSize\r\n"
          + "SqlClientDiagnosticListener/System.Data.SqlClient.WriteCommandAfter@Activity1Stop:\r\n"
          + "Microsoft.EntityFrameworkCore/"
          + "Microsoft.EntityFrameworkCore.Database.Command.CommandExecuting@Activity2Start:-Command;"
          + "Command.CommandText;Command.Connection.DataSource;Command.Connection.Database;"
          + "Command.CommandTimeout;Command.CommandType\r\n"
          + "Microsoft.EntityFrameworkCore/"
          + "Microsoft.EntityFrameworkCore.Database.Command.CommandExecuted@Activity2Stop:";

  /** Every profile, in the order {@code list-profiles} prints them. */
  public static final List<TraceProfile> ALL =
      List.of(
          new TraceProfile(
              "dotnet-common",
              "Lightweight runtime events: GC, JIT, loader, exceptions (the default, with"
                  + " dotnet-sampled-thread-time).",
              List.of(
                  new EventPipeProvider(
                      RuntimeEvents.RUNTIME_PROVIDER,
                      maskOf(
                          GC,
                          ASSEMBLY_LOADER,
                          LOADER,
                          JIT,
                          EXCEPTION,
                          THREADING,
                          JITTED_METHOD_IL_TO_NATIVE_MAP,
                          COMPILATION),
                      INFORMATIONAL)),
              null),
          new TraceProfile(
              "dotnet-sampled-thread-time",
              "Samples every managed thread's stack about every millisecond (thread time).",
              List.of(
                  new EventPipeProvider(SAMPLE_PROFILER, SAMPLE_PROFILER_KEYWORDS, INFORMATIONAL)),
              null),
          new TraceProfile(
              "cpu-sampling",
              "dotnet-trace's former default: thread samples and the runtime's default keywords.",
              List.of(
                  new EventPipeProvider(SAMPLE_PROFILER, SAMPLE_PROFILER_KEYWORDS, INFORMATIONAL),
                  new EventPipeProvider(
                      RuntimeEvents.RUNTIME_PROVIDER,
                      // The runtime's default keywords, as dotnet-trace writes them: 20 bits.
                      0x14C14FCCBDL,
                      INFORMATIONAL)),
              null),
          new TraceProfile(
              "gc-verbose",
              "GC collections, GC handles and exceptions, verbose (sampled allocations too).",
              List.of(
                  new EventPipeProvider(
                      RuntimeEvents.RUNTIME_PROVIDER, maskOf(GC, GC_HANDLE, EXCEPTION), VERBOSE)),
              null),
          new TraceProfile(
              "gc-collect",
              "GC collections only, at very low overhead.",
              List.of(
                  new EventPipeProvider(RuntimeEvents.RUNTIME_PROVIDER, GC.mask(), INFORMATIONAL)),
              GC.mask()),
          new TraceProfile(
              "database",
              "ADO.NET and Entity Framework Core database commands.",
              List.of(
                  new EventPipeProvider(
                      "System.Threading.Tasks.TplEventSource", 0x80L, INFORMATIONAL),
                  new EventPipeProvider(
                      "Microsoft-Diagnostics-DiagnosticSource",
                      0x3L,
                      VERBOSE,
                      Map.of("FilterAndPayloadSpecs", DATABASE_SPECS),
                      List.of())),
              null));

  /** The profiles used when no --profile, --providers or --clrevents is given. */
  public static final List<String> DEFAULT_PROFILES =
      List.of("dotnet-common", "dotnet-sampled-thread-time");

  /** The profile with this name (case-insensitive). */
  public static Optional<TraceProfile> byName(String name) {
    String n = name.strip().toLowerCase(Locale.ROOT);
    return ALL.stream().filter(p -> p.name().equals(n)).findFirst();
  }
}
