package dev.clrscope.cli.commands.http;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.options.DurationOption;
import dev.clrscope.cli.options.StreamFormatOption;
import dev.clrscope.cli.render.Records;
import dev.clrscope.cli.render.Result;
import dev.clrscope.monitor.http.HttpAssembler;
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
          + " (URL with its query redacted, status, duration, time to first byte and the phases:"
          + " DNS, connect, TLS, waiting for a connection, sending, the server's share, response"
          + " headers and content, which add up to the duration; HTTP version, redirects"
          + " followed, failures with their reason), and a summary when it stops (Ctrl+C, Enter,"
          + " --duration, or the target exiting): per host, path (ids folded to {id}) and status"
          + " the count, p50, p95, max and the server's median. Give FILE.nettrace instead of a"
          + " target to read a saved trace"
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
  protected Result readFile(Path file) {
    return Records.of(
        HttpOutput.stream(),
        sink -> {
          HttpAssembler assembler = new HttpAssembler(showQuery, sink::write);
          long span = analyseSavedTrace(file, assembler);
          return HttpOutput.summaryReport(assembler.summary(span), null);
        });
  }

  @Override
  protected Result run(AttachedTarget attached) {
    return Records.of(
        HttpOutput.stream(),
        sink -> {
          HttpAssembler assembler = new HttpAssembler(showQuery, sink::write);
          SessionResult result =
              watchMonitor(
                  attached,
                  HttpAssembler.sessionRequest().withDuration(durationOption.duration()),
                  "the HTTP requests",
                  sink::start,
                  "some requests are missing",
                  assembler);
          return HttpOutput.summaryReport(
              assembler.summary(result.observedNanos()), result.stopReason());
        });
  }
}
