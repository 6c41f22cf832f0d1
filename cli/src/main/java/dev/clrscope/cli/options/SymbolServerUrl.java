package dev.clrscope.cli.options;

import java.net.URI;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** {@code --symbol-server URL}: an http or https URL with a host, else a usage error. */
public final class SymbolServerUrl {
  private SymbolServerUrl() {}

  /** The URL, or a usage error naming the option. */
  public static URI parse(CommandSpec spec, String text) {
    return parse(spec, text, "");
  }

  /**
   * The URL, or a usage error naming the option and, after "an http(s) URL", {@code alternatives}
   * (" or none").
   */
  public static URI parse(CommandSpec spec, String text, String alternatives) {
    URI uri;
    try {
      uri = URI.create(text);
    } catch (IllegalArgumentException e) {
      uri = null;
    }
    if (uri == null
        || uri.getHost() == null
        || uri.getScheme() == null
        || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))) {
      throw new ParameterException(
          spec.commandLine(),
          "--symbol-server takes an http(s) URL" + alternatives + ", not " + text);
    }
    return uri;
  }
}
