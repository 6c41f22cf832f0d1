package dev.clrscope.cli.commands.counters;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.cli.CliRun;
import dev.clrscope.cli.ColonValues;
import dev.clrscope.cli.render.OutputFormat;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * dotnet-counters 10 command lines for {@code collect} and {@code monitor}, as its {@code --help}
 * and documentation write them, and what clrscope makes of each. What clrscope cannot honour is a
 * usage error that says what to write instead.
 */
class DotnetCountersCompatibilityTest {
  private static <C> C parse(C cmd, String args) {
    CommandLine cl = new CommandLine(cmd);
    cl.parseArgs(ColonValues.rewrite(cl, args.split(" ")));
    return cmd;
  }

  private static Arguments collect(String args, Consumer<CollectCountersCommand> expect) {
    return Arguments.of(
        "collect " + args,
        (Runnable)
            () -> {
              CollectCountersCommand c = parse(new CollectCountersCommand(), args);
              c.options.validate();
              c.targetOptions().spec();
              expect.accept(c);
            });
  }

  private static Arguments monitor(String args, Consumer<MonitorCommand> expect) {
    return Arguments.of(
        "monitor " + args,
        (Runnable)
            () -> {
              MonitorCommand c = parse(new MonitorCommand(), args);
              c.options.validate();
              c.targetOptions().spec();
              expect.accept(c);
            });
  }

  static Stream<Arguments> rows() {
    return Stream.of(
        collect(
            "-p 1",
            c -> {
              assertThat(c.options.requests())
                  .extracting(r -> r.provider())
                  .containsExactly("System.Runtime");
              assertThat(c.options.refreshSeconds).isEqualTo(1.0);
              assertThat(c.format).isEqualTo(OutputFormat.csv);
              assertThat(c.output).isEqualTo("-");
            }),
        collect(
            "-p 1 --counters System.Runtime,Microsoft.AspNetCore.Hosting --refresh-interval 2",
            c -> {
              assertThat(c.options.requests())
                  .extracting(r -> r.provider())
                  .containsExactly("System.Runtime", "Microsoft.AspNetCore.Hosting");
              assertThat(c.options.refreshSeconds).isEqualTo(2.0);
            }),
        collect(
            "-p 1 --counters System.Runtime[cpu-usage,working-set]",
            c ->
                assertThat(c.options.requests().get(0).counters())
                    .containsExactly("cpu-usage", "working-set")),
        collect(
            "-p 1 --format json -o out.json",
            c -> {
              assertThat(c.format).isEqualTo(OutputFormat.json);
              assertThat(c.output).isEqualTo("out.json");
            }),
        collect("-p 1 --format:csv", c -> assertThat(c.format).isEqualTo(OutputFormat.csv)),
        collect(
            "-p 1 --maxHistograms 5 --maxTimeSeries 500",
            c -> {
              assertThat(c.options.maxHistograms).isEqualTo(5);
              assertThat(c.options.maxTimeSeries).isEqualTo(500);
            }),
        collect(
            "-p 1 --duration 00:00:10",
            c -> assertThat(c.options.durationOption.duration()).isEqualTo(Duration.ofSeconds(10))),
        collect(
            "-p 1 --resume-runtime:false",
            c -> assertThat(c.targetOptions().resumeRuntime()).isFalse()),
        collect(
            "--dport /tmp/app.sock",
            c -> assertThat(c.targetOptions().spec().toString()).contains("/tmp/app.sock")),
        collect("-n MyApp", c -> assertThat(c.targetOptions().spec().toString()).contains("MyApp")),
        monitor(
            "-p 1 --showDeltas --abbreviateLargeNumbers",
            c -> {
              assertThat(c.showDeltas).isTrue();
              assertThat(c.abbreviate).isTrue();
            }),
        monitor(
            "-p 1 --counters System.Runtime --refresh-interval:3",
            c -> assertThat(c.options.refreshSeconds).isEqualTo(3.0)),
        monitor(
            "-p 1 --resume-runtime", c -> assertThat(c.targetOptions().resumeRuntime()).isTrue()));
  }

  @ParameterizedTest(name = "dotnet-counters {0}")
  @MethodSource("rows")
  void meansWhatDotnetCountersDocuments(String args, Runnable check) {
    check.run();
  }

  static Stream<Arguments> refusals() {
    return Stream.of(
        Arguments.of("collect -p 1 --dsrouter android", "start dotnet-dsrouter yourself"),
        Arguments.of("monitor -p 1 --dsrouter ios", "start dotnet-dsrouter yourself"),
        Arguments.of("collect -p 1 --duration 10", "has no unit"),
        Arguments.of("collect -p 1 --format xml", "expected one of csv, json, jsonl"),
        Arguments.of("collect -p 1 --format json-full", "--format json --layout full"),
        Arguments.of("collect -p 1 --format table", "choose csv, json, jsonl"));
  }

  @ParameterizedTest(name = "dotnet-counters {0}")
  @MethodSource("refusals")
  void whatClrscopeCannotHonourIsAUsageErrorThatSaysWhatToWrite(String args, String says) {
    CliRun r =
        CliRun.of(
            Stream.concat(Stream.of("counters"), List.of(args.split(" ")).stream())
                .toArray(String[]::new));
    assertThat(r.exit()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).contains(says);
  }
}
