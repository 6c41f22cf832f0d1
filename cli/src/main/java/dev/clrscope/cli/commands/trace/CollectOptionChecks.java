package dev.clrscope.cli.commands.trace;

import dev.clrscope.monitor.RuntimeKeyword;
import dev.clrscope.monitor.trace.ProviderSyntax;
import dev.clrscope.monitor.trace.SessionPlan;
import dev.clrscope.monitor.trace.TraceProfile;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Checks of {@code trace collect}'s option values while picocli parses them, so that a mistyped
 * provider or keyword is a usage error before any target is attached (or launched). Each returns
 * the text unchanged; {@link SessionPlan#build} interprets it.
 */
final class CollectOptionChecks {
  private CollectOptionChecks() {}

  private static TypeConversionException usage(IllegalArgumentException e) {
    return new TypeConversionException(e.getMessage());
  }

  /** {@code --providers}. */
  static final class Providers implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      try {
        ProviderSyntax.parseList(value);
        return value;
      } catch (IllegalArgumentException e) {
        throw usage(e);
      }
    }
  }

  /** {@code --clrevents}. */
  static final class ClrEvents implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      try {
        RuntimeKeyword.parse(value);
        return value;
      } catch (IllegalArgumentException e) {
        throw usage(e);
      }
    }
  }

  /** {@code --clreventlevel}. */
  static final class Level implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      try {
        ProviderSyntax.parseLevel(value);
        return value;
      } catch (IllegalArgumentException e) {
        throw usage(e);
      }
    }
  }

  /** One {@code --profile} name (the option splits lists at commas). */
  static final class Profile implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      if (TraceProfile.byName(value).isEmpty()) {
        throw new TypeConversionException(
            "unknown profile '" + value + "': `clrscope trace list-profiles` lists them");
      }
      return value;
    }
  }

  /** {@code --format} of collect: nettrace, speedscope or chromium. */
  static final class Format implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      String v = value.strip().toLowerCase(java.util.Locale.ROOT);
      if (!v.equals("nettrace") && !v.equals("speedscope") && !v.equals("chromium")) {
        throw new TypeConversionException(
            "--format takes nettrace, speedscope or chromium, got '" + value + "'");
      }
      return v;
    }
  }
}
