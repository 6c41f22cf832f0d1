package dev.clrscope.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.Logger;

/**
 * logback's configuration should logback's own provider bind slf4j (clrscope's classes run with
 * another slf4j setup, such as from an IDE; the jar uses {@link LogbackProvider}): registered in
 * {@code META-INF/services}, it turns every logger off and stops logback from looking further, for
 * XML files and then for its default of DEBUG to stdout, which is clrscope's data.
 */
public final class SilentConfigurator extends ContextAwareBase implements Configurator {
  /** Instantiated by logback through the service loader. */
  public SilentConfigurator() {}

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    silence(context);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /** Turns every logger of the context off: the root is off and no logger has a level. */
  static void silence(LoggerContext context) {
    context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.OFF);
  }
}
