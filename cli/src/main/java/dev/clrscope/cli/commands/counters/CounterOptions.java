package dev.clrscope.cli.commands.counters;

import dev.clrscope.cli.options.DurationOption;
import dev.clrscope.cli.options.Numbers;
import dev.clrscope.monitor.counters.CounterRequest;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The options {@code counters monitor} and {@code counters collect} share with dotnet-counters. */
public final class CounterOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(
      names = "--counters",
      paramLabel = "LIST",
      defaultValue = "System.Runtime",
      description =
          "What to watch: Prov (all its counters), Prov[c1,c2] (only these), EventCounters\\Prov"
              + " (its EventCounters even where a Meter of that name exists), separated by"
              + " commas (default: ${DEFAULT-VALUE}, a Meter on .NET 9+, EventCounters before).")
  void setCounters(String value) {
    try {
      requests = CounterRequest.parseList(value);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(mixee.commandLine(), "--counters: " + e.getMessage());
    }
    counters = value;
  }

  String counters = "System.Runtime";
  private List<CounterRequest> requests = CounterRequest.parseList(counters);

  @Option(
      names = "--refresh-interval",
      paramLabel = "SECONDS",
      defaultValue = "1",
      description = "How often the target publishes values (default: ${DEFAULT-VALUE} s).")
  void setRefreshSeconds(double value) {
    if (!(value > 0) || value > 86_400) {
      throw new ParameterException(
          mixee.commandLine(),
          "--refresh-interval takes seconds, more than 0 and at most 86400 (a day), got "
              + Numbers.plain(value));
    }
    refreshSeconds = value;
  }

  double refreshSeconds = 1;

  @Mixin DurationOption durationOption;

  @Option(
      names = "--maxHistograms",
      paramLabel = "N",
      defaultValue = "10",
      description = "At most N histograms are tracked by the target (default: ${DEFAULT-VALUE}).")
  int maxHistograms = 10;

  @Option(
      names = "--maxTimeSeries",
      paramLabel = "N",
      defaultValue = "1000",
      description =
          "At most N time series (instrument and tag combinations) are tracked by the target"
              + " (default: ${DEFAULT-VALUE}).")
  int maxTimeSeries = 1000;

  /** The parsed {@code --counters} (checked as the option was read, a usage error). */
  public List<CounterRequest> requests() {
    return requests;
  }

  /** {@code --refresh-interval}, or the command's default. */
  public double refreshSeconds() {
    return refreshSeconds;
  }

  /** {@code --maxHistograms}. */
  public int maxHistograms() {
    return maxHistograms;
  }

  /** {@code --maxTimeSeries}. */
  public int maxTimeSeries() {
    return maxTimeSeries;
  }

  /** {@code --duration}, or null. */
  public java.time.Duration duration() {
    return durationOption.duration();
  }

  /** Checks the numbers; a usage error names the option. */
  public void validate() {
    if (maxHistograms <= 0) {
      throw new ParameterException(
          mixee.commandLine(), "--maxHistograms must be positive, got " + maxHistograms);
    }
    if (maxTimeSeries <= 0) {
      throw new ParameterException(
          mixee.commandLine(), "--maxTimeSeries must be positive, got " + maxTimeSeries);
    }
  }
}
