package dev.clrscope.monitor.http;

import dev.clrscope.ipc.session.EventLevel;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.monitor.session.SessionRequest;
import dev.clrscope.nettrace.DecodedPayload;
import dev.clrscope.nettrace.Guid;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.EventFields;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * Turns System.Net's events into one {@link HttpRecord} per HttpClient request.
 *
 * <p>What .NET 10 sends, and how it is put together: System.Net.Http's RequestStart (scheme, host,
 * port, pathAndQuery with the query already redacted to {@code ?*} unless the app turned redaction
 * off, the version asked for) and RequestStop (the final status code, -1 without a response), with
 * RequestFailed (the exception's message) before the stop of a failed request. In between, each
 * phase is a start/stop pair: ResolutionStart/Stop (System.Net.NameResolution), ConnectStart/Stop
 * (System.Net.Sockets), HandshakeStart/Stop (System.Net.Security), Request- and
 * ResponseHeaders/ContentStart/Stop; RequestLeftQueue gives the time spent waiting for a
 * connection, ConnectionEstablished a new connection's id and HTTP version, Redirect the target of
 * each redirect (after the ResponseHeadersStop with the 3xx status).
 *
 * <p>Correlation: the events of a request run on whatever threads its async code continues on, so
 * threads say nothing. EventSource's activity tracker (on while TplEventSource's
 * TasksFlowActivityIds keyword is enabled, which {@link #sessionRequest} does) gives every start
 * event a new ActivityId and its parent's as RelatedActivityId, the matching stop the same
 * ActivityId, and other events the current ActivityId. So a request is its RequestStart's
 * ActivityId; a phase's start belongs to the request its RelatedActivityId leads to (directly, or
 * through a phase that is itself open, as a connect under a resolution), and its stop is found by
 * its own ActivityId. Events of no request (a server's own DNS lookups, an HttpListener's accepts)
 * are passed over.
 *
 * <p>Order: the session reads in live order, and the runtime writes each flush (about every 100 ms)
 * thread by thread, so a request's events on several threads may come out of time order. But the
 * first event of each thread's run in a flush is flagged sorted: every older event has been written
 * before it. So the assembler holds System.Net's events back and takes them in time order up to the
 * newest sorted event seen (its watermark), and a request, whose stop is its last event, is handed
 * out complete. So that a quiet process's last requests are not held until the session ends, {@link
 * #sessionRequest} also turns on System.Net.Http's EventCounters every second: their events, on a
 * timer thread, flag a fresh watermark in every flush that has them.
 *
 * <p>Not thread-safe: feed it from one thread.
 */
public final class HttpAssembler implements EventConsumer {
  /** System.Net.Http's EventSource. */
  public static final String HTTP_PROVIDER = "System.Net.Http";

  private static final String DNS_PROVIDER = "System.Net.NameResolution";
  private static final String SOCKETS_PROVIDER = "System.Net.Sockets";
  private static final String SECURITY_PROVIDER = "System.Net.Security";
  private static final String TPL_PROVIDER = "System.Threading.Tasks.TplEventSource";

  /** TplEventSource's TasksFlowActivityIds keyword: turns on EventSource's activity tracker. */
  private static final long TASKS_FLOW_ACTIVITY_IDS = 0x80;

  /**
   * Open requests and phases beyond which the oldest are dropped (a request whose stop was lost),
   * so memory stays bounded however long the session runs.
   */
  private static final int MAX_OPEN = 100_000;

  /**
   * How far behind the watermark events are released. An event's timestamp is taken before it
   * reaches its thread's buffer, so a writer preempted in between (a loaded machine) can land an
   * event older than a sorted one in a later flush; held this much longer, it still finds its
   * request open. It delays a quiet process's last rows by at most one more heartbeat.
   */
  private static final long LATE_EVENT_SLACK_NANOS = 250_000_000L;

  private final boolean showQuery;
  private final Consumer<HttpRecord> sink;
  private final Map<Guid, Request> requests = bounded();
  private final Map<Guid, Phase> phases = bounded();

  /**
   * The phases that have stopped, while their request is open: a phase may still start under one.
   * When a name resolution's stop is written on another thread than its start (the lookup completes
   * on a thread of its own), the start's thread keeps the resolution as its current activity, and
   * the connect that follows there names the stopped resolution as its related activity (seen in 2
   * of 6 fresh processes' first requests here, every time from the runtime's own events). It is
   * still that request's connect.
   */
  private final Map<Guid, Request> stoppedPhases = bounded();

  private final Map<Long, String> connectionVersions = bounded();
  private final HttpSummary.Accumulator summary = new HttpSummary.Accumulator();
  private final PriorityQueue<Held> held = new PriorityQueue<>();
  private long arrivals;
  private long watermark = Long.MIN_VALUE;

  /** An event held back until the watermark passes it; ties keep their order of arrival. */
  private record Held(TraceEvent event, long arrival) implements Comparable<Held> {
    @Override
    public int compareTo(Held o) {
      int c = Long.compare(event.relativeNanos(), o.event.relativeNanos());
      return c != 0 ? c : Long.compare(arrival, o.arrival);
    }
  }

  /** A request between its start and its stop. */
  private static final class Request {
    final Instant time;
    final long relativeNanos;
    final String host;
    final String url;
    final String versionAsked;
    final Map<HttpPhase, Long> phases = new EnumMap<>(HttpPhase.class);
    final List<HttpRecord.Redirect> redirects = new ArrayList<>(0);
    String currentUrl;
    Integer lastStatus;

    /** When the request was last sent (a redirect sends it again), until its response begins. */
    Long sentNanos;

    Long firstByteNanos;
    Long connectionId;
    String failure;

    Request(Instant time, long relativeNanos, String host, String url, String versionAsked) {
      this.time = time;
      this.relativeNanos = relativeNanos;
      this.host = host;
      this.url = url;
      this.currentUrl = url;
      this.versionAsked = versionAsked;
    }

    void add(HttpPhase phase, long nanos) {
      phases.merge(phase, nanos, Long::sum);
    }
  }

  /** A phase between its start and its stop. */
  private record Phase(Request request, HttpPhase phase, long startNanos) {}

  private static <K, V> Map<K, V> bounded() {
    return new LinkedHashMap<>() {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > MAX_OPEN;
      }
    };
  }

  /**
   * The live session that feeds an assembler: System.Net.Http, NameResolution, Sockets and Security
   * at Informational, TplEventSource's TasksFlowActivityIds for the activity ids; no stacks, no
   * rundown (nothing here needs method names), live ordering (see the class comment).
   */
  public static SessionRequest sessionRequest() {
    int informational = EventLevel.INFORMATIONAL.value();
    List<EventPipeProvider> providers = new ArrayList<>();
    // System.Net.Http's EventCounters, every second: the heartbeat that moves the watermark.
    providers.add(
        new EventPipeProvider(
            HTTP_PROVIDER, 0, informational, Map.of("EventCounterIntervalSec", "1"), List.of()));
    for (String p : List.of(DNS_PROVIDER, SOCKETS_PROVIDER, SECURITY_PROVIDER)) {
      providers.add(new EventPipeProvider(p, 0, informational, Map.of(), List.of()));
    }
    providers.add(
        new EventPipeProvider(
            TPL_PROVIDER, TASKS_FLOW_ACTIVITY_IDS, informational, Map.of(), List.of()));
    return SessionRequest.of(
            new EventPipeSessionConfig(16, providers, 0, false, false), "clrscope-http-reader")
        .withOrdering(SessionRequest.Ordering.LIVE);
  }

  /**
   * An assembler.
   *
   * @param showQuery keep query strings as the runtime gives them; else they print as {@code ?*}
   * @param sink takes each record
   */
  public HttpAssembler(boolean showQuery, Consumer<HttpRecord> sink) {
    this.showQuery = showQuery;
    this.sink = sink;
  }

  @Override
  public void accept(TraceEvent e) {
    if (e.isSorted() && e.relativeNanos() > watermark) {
      watermark = e.relativeNanos();
    }
    switch (e.providerName()) {
      case HTTP_PROVIDER, DNS_PROVIDER, SOCKETS_PROVIDER, SECURITY_PROVIDER -> {
        held.add(new Held(e, arrivals++));
        if (held.size() > MAX_OPEN) {
          // No watermark comes (a writer that flags nothing): take the oldest anyway.
          take(held.poll().event());
        }
      }
      default -> {}
    }
    // Every event older than the newest sorted one has been read, but for late writers.
    long releaseBefore =
        watermark == Long.MIN_VALUE ? Long.MIN_VALUE : watermark - LATE_EVENT_SLACK_NANOS;
    while (!held.isEmpty() && held.peek().event().relativeNanos() < releaseBefore) {
      take(held.poll().event());
    }
  }

  /** Takes every event still held, in time order. */
  @Override
  public void streamEnded() {
    while (!held.isEmpty()) {
      take(held.poll().event());
    }
  }

  /** One event, in time order. */
  private void take(TraceEvent e) {
    String provider = e.providerName();
    String name = e.eventName();
    switch (provider) {
      case HTTP_PROVIDER -> http(e, name);
      case DNS_PROVIDER -> startOrStop(e, name, "Resolution", HttpPhase.DNS);
      case SOCKETS_PROVIDER -> startOrStop(e, name, "Connect", HttpPhase.CONNECT);
      case SECURITY_PROVIDER -> startOrStop(e, name, "Handshake", HttpPhase.TLS);
      default -> {}
    }
  }

  private void http(TraceEvent e, String name) {
    switch (name) {
      case "RequestStart" -> {
        DecodedPayload f = EventFields.of(e);
        String host = text(f, "host") + ":" + number(f, "port");
        String url = text(f, "scheme") + "://" + host + redact(text(f, "pathAndQuery"));
        requests.put(
            e.activityId(), new Request(e.timeUtc(), e.relativeNanos(), host, url, version(f)));
      }
      case "RequestStop" -> {
        Request r = requests.remove(e.activityId());
        if (r != null) {
          Long status = number(EventFields.of(e), "statusCode");
          emit(r, status == null || status < 0 ? null : status.intValue(), e.relativeNanos());
        }
      }
      case "RequestFailed" -> {
        Request r = request(e.activityId());
        if (r != null) {
          r.failure = text(EventFields.of(e), "exceptionMessage");
        }
      }
      case "ConnectionEstablished" -> {
        DecodedPayload f = EventFields.of(e);
        Long id = number(f, "connectionId");
        if (id != null) {
          connectionVersions.put(id, version(f));
        }
      }
      case "RequestLeftQueue" -> {
        Request r = request(e.activityId());
        if (r != null
            && EventFields.of(e).get("timeOnQueueMilliseconds") instanceof Number queued) {
          r.add(HttpPhase.QUEUE, Math.round(queued.doubleValue() * 1e6));
        }
      }
      case "RequestHeadersStart" -> {
        Request r = start(e, HttpPhase.REQUEST);
        if (r != null && EventFields.of(e).get("connectionId") instanceof Number id) {
          r.connectionId = id.longValue();
        }
      }
      case "RequestContentStart" -> start(e, HttpPhase.REQUEST);
      case "ResponseHeadersStart" -> {
        Request r = start(e, HttpPhase.RESPONSE_HEADERS);
        if (r != null) {
          // The response's first bytes came: the wait since the request was sent is the server's.
          if (r.sentNanos != null) {
            r.add(HttpPhase.SERVER, e.relativeNanos() - r.sentNanos);
            r.sentNanos = null;
          }
          if (r.firstByteNanos == null) {
            r.firstByteNanos = e.relativeNanos() - r.relativeNanos;
          }
        }
      }
      case "ResponseContentStart" -> start(e, HttpPhase.RESPONSE_CONTENT);
      case "RequestHeadersStop", "RequestContentStop", "ResponseContentStop" -> stop(e);
      case "ResponseHeadersStop" -> {
        Request r = stop(e);
        if (r != null && EventFields.of(e).get("statusCode") instanceof Number status) {
          r.lastStatus = status.intValue();
        }
      }
      case "Redirect" -> {
        Request r = request(e.activityId());
        if (r != null) {
          String to = redactUrl(text(EventFields.of(e), "redirectUri"));
          r.redirects.add(new HttpRecord.Redirect(r.lastStatus, r.currentUrl, to));
          r.currentUrl = to;
        }
      }
      default -> {}
    }
  }

  /**
   * A phase given by {@code <prefix>Start}/{@code <prefix>Stop} (the other providers). A failure
   * (ConnectFailed, HandshakeFailed) comes before its Stop, which times the phase.
   */
  private void startOrStop(TraceEvent e, String name, String prefix, HttpPhase phase) {
    if (name.equals(prefix + "Start")) {
      start(e, phase);
    } else if (name.equals(prefix + "Stop")) {
      stop(e);
    }
  }

  /** Opens a phase under the request its related activity leads to; returns that request. */
  private Request start(TraceEvent e, HttpPhase phase) {
    Request r = request(e.relatedActivityId());
    if (r != null) {
      phases.put(e.activityId(), new Phase(r, phase, e.relativeNanos()));
    }
    return r;
  }

  /** Closes the phase of this stop's activity, adding its time to its request. */
  private Request stop(TraceEvent e) {
    Phase p = phases.remove(e.activityId());
    if (p == null) {
      return null;
    }
    p.request().add(p.phase(), e.relativeNanos() - p.startNanos());
    if (p.phase() == HttpPhase.REQUEST) {
      p.request().sentNanos = e.relativeNanos();
    }
    stoppedPhases.put(e.activityId(), p.request());
    return p.request();
  }

  /** The request an activity is, or is a phase of. */
  private Request request(Guid activity) {
    Request r = requests.get(activity);
    if (r != null) {
      return r;
    }
    Phase p = phases.get(activity);
    return p != null ? p.request() : stoppedPhases.get(activity);
  }

  private void emit(Request r, Integer status, long stopNanos) {
    String version = r.connectionId == null ? null : connectionVersions.get(r.connectionId);
    HttpRecord record =
        new HttpRecord(
            r.time,
            r.relativeNanos,
            r.host,
            r.url,
            status,
            stopNanos - r.relativeNanos,
            status == null ? null : r.firstByteNanos,
            r.phases,
            version == null ? r.versionAsked : version,
            r.connectionId,
            r.redirects,
            r.failure);
    // A request's phases that never stopped (it failed meanwhile) are not kept.
    phases.values().removeIf(p -> p.request() == r);
    stoppedPhases.values().removeIf(q -> q == r);
    summary.add(record);
    sink.accept(record);
  }

  private static String text(DecodedPayload f, String name) {
    return f.get(name) instanceof String s ? s : null;
  }

  private static Long number(DecodedPayload f, String name) {
    return f.get(name) instanceof Number n ? n.longValue() : null;
  }

  /** versionMajor.versionMinor ({@code 1.1}), as RequestStart and ConnectionEstablished give it. */
  private static String version(DecodedPayload f) {
    return number(f, "versionMajor") + "." + number(f, "versionMinor");
  }

  /** A path and query, its query string replaced by {@code ?*} unless asked to show it. */
  private String redact(String pathAndQuery) {
    if (pathAndQuery == null) {
      return "";
    }
    int q = pathAndQuery.indexOf('?');
    return showQuery || q < 0 ? pathAndQuery : pathAndQuery.substring(0, q) + "?*";
  }

  private String redactUrl(String url) {
    return url == null ? null : redact(url);
  }

  /**
   * The summary of every request handed out.
   *
   * @param observedNanos how long the session watched
   */
  public HttpSummary summary(long observedNanos) {
    return summary.build(observedNanos);
  }
}
