package dev.clrscope.e2e;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The clrscope commands a test runs and checks against its app's facts, as docs/runtimes.md's table
 * names them ({@code gcstats}, {@code dump-heap CORE}, ...). On which runtimes: those of the test's
 * {@code @EnumSource(Runtime.class ...)}, or, for a test that reads files recorded on older
 * runtimes, {@link #recorded}. {@code RuntimeSupportTableTest} draws the table from these and fails
 * when docs/runtimes.md says otherwise.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface RunsCommands {
  /** The commands, as the table's rows name them. */
  String[] value();

  /**
   * The runtimes of the recorded files the test reads instead of a live app ({@code "Core 2.1"},
   * {@code "5"}, {@code "6"}): the table's column of older runtimes.
   */
  String[] recorded() default {};
}
