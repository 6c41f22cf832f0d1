package dev.clrscope.cli.commands.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.cli.CliRun;
import dev.clrscope.cli.ColonValues;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.monitor.trace.StoppingEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * dotnet-trace 10 command lines, as its {@code collect --help} and documentation write them, and
 * the request clrscope builds from each: what the reference documents them to mean. A row that
 * clrscope cannot honour must be a usage error that says what to write instead, never a silent
 * different meaning.
 */
class DotnetTraceCompatibilityTest {
  private static final String RUNTIME = "Microsoft-Windows-DotNETRuntime";
  private static final String SAMPLER = "Microsoft-DotNETCore-SampleProfiler";

  /** Parses {@code args} as {@code clrscope trace collect ARGS} and validates them. */
  private static CollectCommand parse(String... args) {
    CollectCommand cmd = new CollectCommand();
    CommandLine cl = new CommandLine(cmd);
    cl.parseArgs(ColonValues.rewrite(cl, args));
    cmd.validate();
    cmd.targetOptions().spec();
    return cmd;
  }

  private static Arguments row(String args, Consumer<CollectCommand> expect) {
    return Arguments.of(args, expect);
  }

  static Stream<Arguments> rows() {
    return Stream.of(
        // --providers: Name[:[Keywords][:[Level][:Args]]], keywords 0 and level 4 when left out.
        row(
            "-p 1 --providers Microsoft-Windows-DotNETRuntime",
            c -> assertThat(c.plan().providers()).containsExactly(provider(RUNTIME, 0, 4))),
        row(
            "-p 1 --providers Microsoft-Windows-DotNETRuntime:0x8000:4",
            c -> assertThat(c.plan().providers()).containsExactly(provider(RUNTIME, 0x8000, 4))),
        row(
            "-p 1 --providers Microsoft-Windows-DotNETRuntime::5",
            c -> assertThat(c.plan().providers()).containsExactly(provider(RUNTIME, 0, 5))),
        row(
            "-p 1 --providers:Microsoft-Windows-DotNETRuntime:0x1:5",
            c -> assertThat(c.plan().providers()).containsExactly(provider(RUNTIME, 1, 5))),
        row(
            "-p 1 --providers My-Source:*:Verbose",
            c -> assertThat(c.plan().providers()).containsExactly(provider("My-Source", -1, 5))),
        row(
            "-p 1 --providers Microsoft-Extensions-Logging:4:5:FilterSpecs=App*:Information",
            c ->
                assertThat(c.plan().providers().get(0).arguments())
                    .containsExactly(Map.entry("FilterSpecs", "App*:Information"))),
        // Profiles: merged, the first profile's settings kept for a shared provider.
        row(
            "-p 1",
            c ->
                assertThat(c.plan().providers())
                    .extracting(EventPipeProvider::name)
                    .containsExactly(RUNTIME, SAMPLER)),
        // SampleProfiler with the keywords dotnet-trace 10 sends for a provider it names without
        // any (its client library's default), not 0.
        row(
            "-p 1 --profile dotnet-sampled-thread-time",
            c ->
                assertThat(c.plan().providers())
                    .containsExactly(provider(SAMPLER, 0xF00000000000L, 4))),
        row(
            "-p 1 --profile gc-collect,dotnet-common",
            c ->
                assertThat(c.plan().providers().get(0).keywords())
                    .isEqualTo(
                        parse("-p 1 --profile gc-collect".split(" "))
                            .plan()
                            .providers()
                            .get(0)
                            .keywords())),
        row(
            "-p 1 --profile cpu-sampling",
            c ->
                assertThat(c.plan().providers())
                    .extracting(EventPipeProvider::name)
                    .contains(SAMPLER)),
        // --clrevents and --clreventlevel (default verbose).
        row(
            "-p 1 --clrevents gc+exception --clreventlevel informational",
            c -> assertThat(c.plan().providers()).containsExactly(provider(RUNTIME, 0x8001, 4))),
        row(
            "-p 1 --clrevents gc",
            c -> assertThat(c.plan().providers()).containsExactly(provider(RUNTIME, 0x1, 5))),
        // --duration: .NET TimeSpan forms.
        row("-p 1 --duration 00:00:00:05", c -> assertThat(c.duration()).hasSeconds(5)),
        row("-p 1 --duration 00:00:05", c -> assertThat(c.duration()).hasSeconds(5)),
        row("-p 1 --duration:00:00:30", c -> assertThat(c.duration()).hasSeconds(30)),
        row(
            "-p 1 --duration 1.00:00:00",
            c -> assertThat(c.duration()).isEqualTo(Duration.ofDays(1))),
        // --rundown true|false|keywords.
        row("-p 1 --rundown false", c -> assertThat(c.plan().rundownKeyword()).isZero()),
        row("-p 1 --rundown:false", c -> assertThat(c.plan().rundownKeyword()).isZero()),
        row("-p 1 --rundown 0x1", c -> assertThat(c.plan().rundownKeyword()).isEqualTo(1)),
        row(
            "-p 1 --rundown",
            c ->
                assertThat(c.plan().rundownKeyword())
                    .isEqualTo(EventPipeSessionConfig.DEFAULT_RUNDOWN_KEYWORD)),
        // --buffering-mode Drop|Block|0|1.
        row("-p 1 --buffering-mode Block", c -> assertThat(c.lossless()).isTrue()),
        row("-p 1 --buffering-mode 0", c -> assertThat(c.lossless()).isFalse()),
        row("-p 1", c -> assertThat(c.lossless()).isFalse()),
        // Stopping events in dotnet-trace's spelling.
        row(
            "-p 1 --stopping-event-provider-name Microsoft-Windows-DotNETRuntime"
                + " --stopping-event-event-name GC/Start --stopping-event-payload-filter"
                + " Reason:AllocSmall,Depth:0",
            c ->
                assertThat(c.stoppingEvent())
                    .isEqualTo(
                        new StoppingEvent(
                            RUNTIME, "GC/Start", Map.of("Reason", "AllocSmall", "Depth", "0")))),
        // Target options.
        row(
            "-p 1 --resume-runtime:false",
            c -> assertThat(c.targetOptions().resumeRuntime()).isFalse()),
        row("-p 1 --resume-runtime", c -> assertThat(c.targetOptions().resumeRuntime()).isTrue()),
        row(
            "--dport /tmp/x.sock",
            c -> assertThat(c.targetOptions().spec().toString()).contains("/tmp/x.sock")),
        row("-p:1234", c -> assertThat(c.targetOptions().spec().toString()).contains("1234")),
        row("-p 1 --show-child-io", c -> assertThat(c.targetOptions().showChildIo()).isTrue()),
        row(
            "-p 1 --show-child-io false",
            c -> assertThat(c.targetOptions().showChildIo()).isFalse()),
        // The rest of `dotnet-trace collect --help`.
        row("-p 1 --buffersize 512", c -> assertThat(c.bufferSize.megabytes()).isEqualTo(512)),
        row("-p 1", c -> assertThat(c.bufferSize.megabytes()).isEqualTo(256)),
        row(
            "-p 1 --format Speedscope",
            c -> assertThat(c.format).isEqualToIgnoringCase("speedscope")),
        row("-p 1 --format Chromium", c -> assertThat(c.format).isEqualToIgnoringCase("chromium")),
        row("-p 1 -o trace.nettrace", c -> assertThat(c.output).hasToString("trace.nettrace")),
        row(
            "-p 1 --output:trace.nettrace",
            c -> assertThat(c.output).hasToString("trace.nettrace")),
        row("-n MyApp", c -> assertThat(c.targetOptions().spec().toString()).contains("MyApp")),
        row(
            "--process-id 1234",
            c -> assertThat(c.targetOptions().spec().toString()).contains("1234")),
        row(
            "--diagnostic-port /tmp/x.sock,connect",
            c -> assertThat(c.targetOptions().spec().toString()).contains("/tmp/x.sock")),
        // dotnet-trace discards a launched app's output; clrscope shows it on stderr, and its
        // stdout holds the trace's path alone either way.
        row("-p 1", c -> assertThat(c.targetOptions().showChildIo()).isTrue()));
  }

  @ParameterizedTest(name = "dotnet-trace collect {0}")
  @MethodSource("rows")
  void meansWhatDotnetTraceDocuments(String args, Consumer<CollectCommand> expect) {
    expect.accept(parse(args.split(" ")));
  }

  static Stream<Arguments> refusals() {
    return Stream.of(
        Arguments.of("-p 1 --duration 3", "has no unit"),
        Arguments.of("-p 1 --dsrouter android", "start dotnet-dsrouter yourself"),
        Arguments.of("-p 1 --buffering-mode Fast", "takes Drop or Block"),
        Arguments.of("-p 1 --rundown maybe", "true, false or the rundown keywords"),
        Arguments.of(
            "-p 1 --stopping-event-provider-name Microsoft-Windows-DotNETRuntime"
                + " --stopping-event-event-name GC/Start --stopping-event-payload-filter Nope:1",
            "GC/Start has no field 'Nope': its fields are"),
        Arguments.of(
            "-p 1 --stopping-event-provider-name Microsoft-Windows-DotNETRuntime"
                + " --stopping-event-event-name GC/Start --stopping-event-payload-filter"
                + " Reason:Sometimes",
            "'Sometimes' is not a value of Reason"),
        Arguments.of(
            "-p 1 --stopping-event-provider-name Microsoft-Windows-DotNETRuntime"
                + " --stopping-event-event-name GC/Nothing",
            "has no event 'GC/Nothing'"));
  }

  @ParameterizedTest(name = "dotnet-trace collect {0}")
  @MethodSource("refusals")
  void whatClrscopeCannotHonourIsAUsageErrorThatSaysWhatToWrite(String args, String says) {
    CliRun r =
        CliRun.of(
            Stream.concat(Stream.of("trace", "collect"), List.of(args.split(" ")).stream())
                .toArray(String[]::new));
    assertThat(r.exit()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).contains(says);
  }

  private static EventPipeProvider provider(String name, long keywords, int level) {
    return new EventPipeProvider(name, keywords, level);
  }
}
