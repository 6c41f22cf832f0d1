package dev.clrscope.monitor.http;

/**
 * The parts of an HttpClient request that System.Net's events time, in the order they happen. Each
 * is the sum of its start/stop pairs within the request (a redirect sends the request's headers
 * twice, for example).
 */
public enum HttpPhase {
  /** Name resolution: System.Net.NameResolution's ResolutionStart/Stop. */
  DNS("dnsMs"),
  /** The TCP connect: System.Net.Sockets' ConnectStart/Stop. */
  CONNECT("connectMs"),
  /** The TLS handshake: System.Net.Security's HandshakeStart/Stop. */
  TLS("tlsMs"),
  /**
   * Waiting for a connection of the pool: RequestLeftQueue's timeOnQueueMilliseconds (a new
   * connection's DNS, connect and TLS happen while the request waits).
   */
  QUEUE("queueMs"),
  /** Sending the request: RequestHeadersStart/Stop and RequestContentStart/Stop. */
  REQUEST("requestMs"),
  /**
   * The server's share: from the request sent (its headers', or its content's, stop) to the
   * response's first bytes (ResponseHeadersStart, which the runtime writes once they came).
   */
  SERVER("serverMs"),
  /** Reading the response's headers: ResponseHeadersStart/Stop. */
  RESPONSE_HEADERS("responseHeadersMs"),
  /** Reading the response's content: ResponseContentStart/Stop. */
  RESPONSE_CONTENT("responseContentMs");

  private final String key;

  HttpPhase(String key) {
    this.key = key;
  }

  /** The phase's name in JSON and CSV ({@code dnsMs}). */
  public String key() {
    return key;
  }
}
