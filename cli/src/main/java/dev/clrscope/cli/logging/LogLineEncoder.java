package dev.clrscope.cli.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * One log line per event, in one of two formats (written by hand rather than with a logback
 * pattern, so that turning logs on parses nothing):
 *
 * <pre>
 *  stderr (-v):       12:34:56.789 DEBUG ipc.client.DiagnosticsClient - message
 *  file (--log-file): 2025-01-31T12:34:56.789+01:00 [main] DEBUG dev.clrscope.ipc.client.DiagnosticsClient - message
 * </pre>
 *
 * <p>On stderr the {@code dev.clrscope.} prefix of logger names is left out. A logged exception
 * follows its line as Java prints stack traces.
 */
final class LogLineEncoder extends EncoderBase<ILoggingEvent> {
  /** The prefix of clrscope's own logger names, left out on the terminal. */
  static final String OWN_PREFIX = "dev.clrscope.";

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxxx");
  private static final String NEWLINE = System.lineSeparator();

  private final boolean full;
  private final ZoneId zone = ZoneId.systemDefault();

  /**
   * An encoder.
   *
   * @param full the file format: full timestamp, thread name and logger name
   */
  LogLineEncoder(boolean full) {
    this.full = full;
  }

  @Override
  public byte[] headerBytes() {
    return null;
  }

  @Override
  public byte[] encode(ILoggingEvent event) {
    return format(event).getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public byte[] footerBytes() {
    return null;
  }

  /** The event's line (and stack trace), ending in a line separator. */
  String format(ILoggingEvent event) {
    StringBuilder sb = new StringBuilder(160);
    ZonedDateTime time = Instant.ofEpochMilli(event.getTimeStamp()).atZone(zone);
    String logger = event.getLoggerName();
    if (full) {
      TIMESTAMP.formatTo(time, sb);
      sb.append(" [").append(event.getThreadName()).append("] ");
    } else {
      TIME.formatTo(time, sb);
      sb.append(' ');
      if (logger.startsWith(OWN_PREFIX)) {
        logger = logger.substring(OWN_PREFIX.length());
      }
    }
    String level = event.getLevel().toString();
    sb.append(level);
    for (int i = level.length(); i < 5; i++) {
      sb.append(' ');
    }
    sb.append(' ').append(logger).append(" - ").append(event.getFormattedMessage()).append(NEWLINE);
    IThrowableProxy thrown = event.getThrowableProxy();
    if (thrown instanceof ThrowableProxy proxy && proxy.getThrowable() != null) {
      StringWriter trace = new StringWriter();
      try (PrintWriter w = new PrintWriter(trace)) {
        proxy.getThrowable().printStackTrace(w);
      }
      sb.append(trace);
    } else if (thrown != null) {
      sb.append(ThrowableProxyUtil.asString(thrown));
    }
    return sb.toString();
  }
}
