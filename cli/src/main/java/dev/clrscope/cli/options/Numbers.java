package dev.clrscope.cli.options;

import dev.clrscope.ipc.discovery.ProcessId;
import java.math.BigDecimal;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * How every numeric option is read: ASCII digits only ({@code Integer.valueOf} would take other
 * scripts' digits, {@code Double.valueOf} NaN, Infinity and hex), registered on every command line
 * by {@link #register}; and numbers shown back in messages as written, not as {@code 1.0E9}.
 */
public final class Numbers {
  private Numbers() {}

  private static final Pattern WHOLE = Pattern.compile("-?[0-9]+");
  private static final Pattern DECIMAL = Pattern.compile("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?");

  /** Registers the converters on {@code cl} and the subcommands it has now. */
  public static void register(CommandLine cl) {
    cl.registerConverter(Integer.class, Numbers::integer);
    cl.registerConverter(Integer.TYPE, Numbers::integer);
    cl.registerConverter(Long.class, Numbers::whole);
    cl.registerConverter(Long.TYPE, Numbers::whole);
    cl.registerConverter(Double.class, Numbers::decimal);
    cl.registerConverter(Double.TYPE, Numbers::decimal);
  }

  static Integer integer(String text) {
    long v = whole(text);
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw new TypeConversionException(
          "'" + text + "' is out of range: at most " + Integer.MAX_VALUE);
    }
    return (int) v;
  }

  static Long whole(String text) {
    if (!WHOLE.matcher(text).matches()) {
      throw new TypeConversionException("'" + text + "' is not a whole number (digits 0-9)");
    }
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new TypeConversionException(
          "'" + text + "' is out of range: at most " + Long.MAX_VALUE);
    }
  }

  static Double decimal(String text) {
    if (!DECIMAL.matcher(text).matches()) {
      throw new TypeConversionException("'" + text + "' is not a number (digits 0-9, like 2.5)");
    }
    double v = Double.parseDouble(text);
    if (!Double.isFinite(v)) {
      throw new TypeConversionException("'" + text + "' is out of range");
    }
    return v;
  }

  /** {@code v} as a person writes it: {@code 1000000000}, {@code 0.5}, never {@code 1.0E9}. */
  public static String plain(double v) {
    return Double.isFinite(v) ? BigDecimal.valueOf(v).stripTrailingZeros().toPlainString() : "" + v;
  }

  /** Reads a {@code -p PID}: see {@link ProcessId}. */
  public static final class Pid implements ITypeConverter<Long> {
    @Override
    public Long convert(String text) {
      try {
        return ProcessId.parse(text);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
