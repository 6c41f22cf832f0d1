package dev.clrscope.cli.commands.http;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.options.DurationOption;
import dev.clrscope.cli.options.StreamFormatOption;
import dev.clrscope.cli.render.MonitorOutput;
import dev.clrscope.monitor.http.HttpAssembler;
import dev.clrscope.monitor.http.HttpRecord;
import dev.clrscope.monitor.http.HttpSummary;
import dev.clrscope.monitor.session.SessionResult;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code clrscope http}: every HttpClient request a process makes, with its phases. */
@Command(
    name = "http",
    mixinStandardHelpOptions = true,
    description = {
      "Watch the HTTP requests a process makes with HttpClient: one row per request as it ends"
          + " (URL with its query redacted, status, duration and its phases: DNS, connect, TLS,"
          + " waiting for a connection, sending, response headers and content; HTTP version,"
          + " redirects followed, failures with their reason), and a summary when it stops"
          + " (Ctrl+C, Enter, --duration, or the target exiting): per host and status the count,"
          + " p50, p95 and max. Give FILE.nettrace instead of a target to read a saved trace"
          + " (recorded with the System.Net.* providers and TplEventSource:0x80)."
    })
public final class HttpCommand extends AttachingCommand {
  @Mixin StreamFormatOption format;

  @Mixin DurationOption durationOption;

  @Option(
      names = "--show-query",
      description =
          "Show query strings as the runtime gives them. By default they print as ?*; the"
              + " runtime itself redacts them to ?* unless the app turned that off"
              + " (System.Net.Http.DisableUriRedaction).")
  boolean showQuery;

  @Override
  protected boolean readsFiles() {
    return true;
  }

  @Override
  protected int readFile(Path file) {
    MonitorOutput<HttpRecord, HttpSummary> output =
        HttpOutput.output(format.renderer(out(), err()));
    HttpAssembler assembler = new HttpAssembler(showQuery, output::write);
    return analyseSavedTrace(
        file, assembler, span -> output.summary(assembler.summary(span), null));
  }

  @Override
  protected int run(AttachedTarget attached) {
    MonitorOutput<HttpRecord, HttpSummary> output =
        HttpOutput.output(format.renderer(out(), err()));
    HttpAssembler assembler = new HttpAssembler(showQuery, output::write);
    SessionResult result =
        watchMonitor(
            attached,
            HttpAssembler.sessionRequest().withDuration(durationOption.duration()),
            "the HTTP requests",
            output::header,
            "some requests are missing",
            assembler);
    output.summary(assembler.summary(result.observedNanos()), result.stopReason());
    return 0;
  }
}
