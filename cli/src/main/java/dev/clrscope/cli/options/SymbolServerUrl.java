package dev.clrscope.cli.options;

import java.net.URI;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code --symbol-server URL}: an https URL with a host, or http with {@code --allow-http}, else a
 * usage error.
 */
public final class SymbolServerUrl {
  private SymbolServerUrl() {}

  /**
   * The URL, or a usage error naming the option and, after "an http(s) URL", {@code alternatives}
   * (" or none").
   *
   * @param allowHttp whether {@code --allow-http} was given
   */
  public static URI parse(CommandSpec spec, String text, String alternatives, boolean allowHttp) {
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
    if (uri.getScheme().equals("http") && !allowHttp) {
      // What a DAC server sends is loaded as code: a plain connection lets anyone on the way
      // choose it.
      throw new ParameterException(
          spec.commandLine(),
          "--symbol-server "
              + text
              + " is plain http, which anyone on the way can change, and the DAC is code clrscope"
              + " runs: give an https URL, or add --allow-http to accept it");
    }
    return uri;
  }
}
