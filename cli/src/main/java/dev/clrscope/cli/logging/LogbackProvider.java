package dev.clrscope.cli.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.CoreConstants;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * How slf4j binds logback in clrscope: logback's own context, created silent.
 *
 * <p>logback's own provider runs its auto-configuration first (version checks, a service-loader
 * search for configurators, the status printer), which costs about 20 ms of every run's start-up
 * even with the AppCDS archive, although clrscope's logs are off unless asked for. This provider
 * does what logback's does minus that search: the root logger is off ({@link
 * SilentConfigurator#silence}), there is no appender, and {@link Logging} configures the context in
 * code when a command asks for logs. {@code Main} names it in the {@code slf4j.provider} property,
 * and the jar's service file lists only it.
 */
public final class LogbackProvider implements SLF4JServiceProvider {
  /** The slf4j API version this provider is written against, as logback 1.5 declares it. */
  private static final String REQUESTED_API_VERSION = "2.0.99";

  private final LoggerContext context = new LoggerContext();
  private final IMarkerFactory markerFactory = new BasicMarkerFactory();
  private final LogbackMDCAdapter mdcAdapter = new LogbackMDCAdapter();

  /** Instantiated by slf4j. */
  public LogbackProvider() {}

  @Override
  public void initialize() {
    context.setName(CoreConstants.DEFAULT_CONTEXT_NAME);
    context.setMDCAdapter(mdcAdapter);
    SilentConfigurator.silence(context);
    context.start();
  }

  @Override
  public ILoggerFactory getLoggerFactory() {
    return context;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markerFactory;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdcAdapter;
  }

  @Override
  public String getRequestedApiVersion() {
    return REQUESTED_API_VERSION;
  }
}
