package dev.clrscope.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import dev.clrscope.cli.ClrscopeVersion;
import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.ExitCode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.LoggerFactory;

/**
 * Turns clrscope's own logs on for one run, and off again after it.
 *
 * <p>Logs are off by default ({@link SilentConfigurator}). {@code -v} sends DEBUG and above of the
 * {@code dev.clrscope} loggers to stderr, {@code --log-file FILE} appends them to FILE with full
 * timestamps and thread names; both may be given. A run's failures (the one-line error of exit 1,
 * the stack trace of exit 70) go to the file only, since stderr shows them already.
 */
public final class Logging {
  /** The loggers clrscope's options turn on: clrscope's own, of every module. */
  static final String OWN_LOGGERS = "dev.clrscope";

  /** The logger of the run itself (start, failures): to the log file only. */
  static final String RUN_LOGGER = "dev.clrscope.cli.Main";

  private static boolean fileOn;

  private Logging() {}

  /**
   * Binds slf4j now, on this thread, with logs off: so that the first logger is never created by
   * several threads at once, which would have slf4j replay the calls made meanwhile with a warning
   * on stderr. A library class with a logger would bind it anyway.
   */
  public static void bind() {
    LoggerFactory.getILoggerFactory();
  }

  /**
   * Turns logs on.
   *
   * @param verbose DEBUG logs to {@code err}
   * @param file where to append DEBUG logs, or {@code null}
   * @param err the run's standard error
   * @throws CommandFailure if the file cannot be opened for writing
   */
  public static void start(boolean verbose, Path file, PrintStream err) {
    OutputStream fileStream = file == null ? null : open(file);
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    Logger own = context.getLogger(OWN_LOGGERS);
    if (verbose) {
      own.addAppender(appender(context, "stderr", new StandardError(err), false));
    }
    if (fileStream != null) {
      OutputStreamAppender<ILoggingEvent> toFile = appender(context, "file", fileStream, true);
      own.addAppender(toFile);
      Logger run = context.getLogger(RUN_LOGGER);
      run.setAdditive(false);
      run.addAppender(toFile);
      fileOn = true;
    }
    own.setLevel(Level.DEBUG);
  }

  /** Records, in the log file, the start of a run of {@code command}. */
  public static void runStarted(String command) {
    if (fileOn) {
      LoggerFactory.getLogger(RUN_LOGGER)
          .debug(
              "{}: version {}, Java {} ({}), {} {}, pid {}",
              command,
              ClrscopeVersion.version(),
              System.getProperty("java.version"),
              System.getProperty("java.vm.name"),
              System.getProperty("os.name"),
              System.getProperty("os.arch"),
              ProcessHandle.current().pid());
    }
  }

  /**
   * Records, in the log file, the failure that ends a run, with its stack trace.
   *
   * @param message the line the user sees on stderr
   * @param failure what was thrown
   * @param internal whether it is a bug in clrscope (exit 70) rather than a target error (exit 1)
   */
  public static void runFailed(String message, Throwable failure, boolean internal) {
    if (fileOn) {
      LoggerFactory.getLogger(RUN_LOGGER)
          .error(
              "{} (exit {})",
              message,
              internal ? ExitCode.INTERNAL_ERROR : ExitCode.TARGET_ERROR,
              failure);
    }
  }

  /** Turns logs off again and closes the log file. */
  public static void stop() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    Logger own = context.getLogger(OWN_LOGGERS);
    own.setLevel(null);
    own.detachAndStopAllAppenders();
    Logger run = context.getLogger(RUN_LOGGER);
    run.detachAndStopAllAppenders();
    run.setAdditive(true);
    fileOn = false;
  }

  private static OutputStream open(Path file) {
    try {
      return Files.newOutputStream(
          file, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    } catch (NoSuchFileException e) {
      Path dir = file.toAbsolutePath().getParent();
      throw new CommandFailure(
          "cannot open the log file " + file + ": the directory " + dir + " does not exist", e);
    } catch (AccessDeniedException e) {
      throw new CommandFailure("cannot open the log file " + file + ": permission denied", e);
    } catch (FileSystemException e) {
      throw new CommandFailure(
          "cannot open the log file "
              + file
              + ": "
              + (e.getReason() != null ? e.getReason() : e.getMessage()),
          e);
    } catch (IOException | UnsupportedOperationException e) {
      throw new CommandFailure("cannot open the log file " + file + ": " + e.getMessage(), e);
    }
  }

  private static OutputStreamAppender<ILoggingEvent> appender(
      LoggerContext context, String name, OutputStream out, boolean full) {
    LogLineEncoder encoder = new LogLineEncoder(full);
    encoder.setContext(context);
    encoder.start();
    OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
    appender.setName(name);
    appender.setContext(context);
    appender.setEncoder(encoder);
    appender.setOutputStream(out);
    appender.setImmediateFlush(true);
    appender.start();
    return appender;
  }

  /** The run's standard error; closing it leaves stderr open. */
  private static final class StandardError extends OutputStream {
    private final PrintStream err;

    StandardError(PrintStream err) {
      this.err = err;
    }

    @Override
    public void write(int b) {
      err.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      err.write(b, off, len);
    }

    @Override
    public void flush() {
      err.flush();
    }
  }
}
