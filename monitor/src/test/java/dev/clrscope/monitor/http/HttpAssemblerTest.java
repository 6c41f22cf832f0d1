package dev.clrscope.monitor.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Requests from a real .NET 10 trace: TargetApp's {@code http 4} (two GETs of {@code
 * /ok?i=K&token=…} answered 200, {@code /missing} 404, {@code /redirect} 302 to {@code
 * /ok?i=redirected}) and {@code http-fail} (a connect refused), recorded with {@code trace collect
 * --no-rundown --providers
 * System.Net.Http:0:4,System.Net.NameResolution:0:4,System.Net.Sockets:0:4,
 * System.Net.Security:0:4,System.Threading.Tasks.TplEventSource:0x80:4}.
 */
class HttpAssemblerTest {
  private static final String TRACE = "/dev/clrscope/monitor/http/net10-http.nettrace";
  private static final String ROOT = "http://localhost:39069/";

  private final List<HttpRecord> out = new ArrayList<>();

  private HttpAssembler feed() throws IOException {
    return feed(false);
  }

  private HttpAssembler feed(boolean live) throws IOException {
    HttpAssembler a = new HttpAssembler(false, out::add);
    try (InputStream in = HttpAssemblerTest.class.getResourceAsStream(TRACE);
        NetTraceReader r = live ? NetTraceReader.openLive(in, false) : NetTraceReader.open(in)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        a.accept(e);
      }
    }
    a.streamEnded();
    return a;
  }

  @Test
  void everyRequestIsOneRecordWithItsStatusPhasesAndRedirect() throws IOException {
    HttpAssembler a = feed();

    assertThat(out)
        .extracting(HttpRecord::url)
        .containsExactly(
            ROOT + "ok?*",
            ROOT + "ok?*",
            ROOT + "missing",
            ROOT + "redirect",
            "http://127.0.0.1:36705/closed");
    assertThat(out)
        .extracting(HttpRecord::outcome)
        .containsExactly("200", "200", "404", "200", "failed");
    HttpRecord first = out.get(0);
    // The request that opened the connection: resolved localhost, connected, waited for it.
    assertThat(first.phases())
        .containsOnlyKeys(
            HttpPhase.DNS,
            HttpPhase.CONNECT,
            HttpPhase.QUEUE,
            HttpPhase.REQUEST,
            HttpPhase.SERVER,
            HttpPhase.RESPONSE_HEADERS,
            HttpPhase.RESPONSE_CONTENT);
    assertThat(first.phaseMillis(HttpPhase.QUEUE)).isEqualTo(15.6968);
    assertThat(first.durationNanos()).isEqualTo(40_092_328L);
    assertThat(first.version()).isEqualTo("1.1");
    assertThat(first.connectionId()).isZero();
    // Later ones reuse the pooled connection: no DNS, no connect.
    assertThat(out.get(1).phases())
        .containsOnlyKeys(
            HttpPhase.REQUEST,
            HttpPhase.SERVER,
            HttpPhase.RESPONSE_HEADERS,
            HttpPhase.RESPONSE_CONTENT);
    // Every answered request: the time to its first byte, within its duration, past its sending;
    // and the phases that follow one another, with what none accounts for, add up to it.
    for (HttpRecord r : out.subList(0, 4)) {
      assertThat(r.timeToFirstByteNanos()).isPositive().isLessThanOrEqualTo(r.durationNanos());
      double phases = r.otherMillis();
      for (HttpPhase p :
          List.of(
              HttpPhase.QUEUE,
              HttpPhase.REQUEST,
              HttpPhase.SERVER,
              HttpPhase.RESPONSE_HEADERS,
              HttpPhase.RESPONSE_CONTENT)) {
        phases += r.phaseMillis(p) == null ? 0 : r.phaseMillis(p);
      }
      assertThat(phases).isCloseTo(r.durationMillis(), org.assertj.core.data.Offset.offset(1e-6));
      if (r.redirects().isEmpty()) {
        // One response: its first byte came after the request was sent and the server waited.
        assertThat(r.timeToFirstByteMillis())
            .isGreaterThanOrEqualTo(r.phaseMillis(HttpPhase.SERVER));
      }
    }

    assertThat(out.get(3).redirects())
        .containsExactly(new HttpRecord.Redirect(302, ROOT + "redirect", ROOT + "ok?*"));
    assertThat(out.subList(0, 3)).allSatisfy(r -> assertThat(r.redirects()).isEmpty());

    HttpRecord failed = out.get(4);
    assertThat(failed.status()).isNull();
    assertThat(failed.timeToFirstByteNanos()).isNull();
    assertThat(failed.failure()).isEqualTo("Connection refused (127.0.0.1:36705)");
    assertThat(failed.phases()).containsKey(HttpPhase.CONNECT).doesNotContainKey(HttpPhase.DNS);

    HttpSummary s = a.summary(1_000_000_000L);
    assertThat(s.requests()).isEqualTo(5);
    assertThat(s.failed()).isEqualTo(1);
    assertThat(s.redirects()).isEqualTo(1);
    assertThat(s.byPath())
        .extracting(g -> g.host() + " " + g.path() + " " + g.status() + " " + g.count())
        .containsExactly(
            "127.0.0.1:36705 /closed failed 1",
            "localhost:39069 /missing 404 1",
            "localhost:39069 /ok 200 2",
            "localhost:39069 /redirect 200 1");
    HttpSummary.Group ok = s.byPath().get(2);
    assertThat(ok.maxMillis())
        .isEqualTo(Math.max(out.get(0).durationMillis(), out.get(1).durationMillis()));
    assertThat(ok.serverP50Millis()).isPositive();
    assertThat(s.byPath().get(0).serverP50Millis()).isNull();
  }

  @Test
  void inTheOrderALiveSessionReadsTheSameRecordsComeOut() throws IOException {
    feed(false);
    List<HttpRecord> global = List.copyOf(out);
    out.clear();
    List<HttpRecord> live = new ArrayList<>();
    HttpAssembler a = new HttpAssembler(false, live::add);
    try (InputStream in = HttpAssemblerTest.class.getResourceAsStream(TRACE);
        NetTraceReader r = NetTraceReader.openLive(in, false)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        a.accept(e);
      }
      // Before the end, the watermark has let every request but those of the last flush out.
      assertThat(live).isNotEmpty();
    }
    a.streamEnded();
    assertThat(live).isEqualTo(global);
  }

  /**
   * A fresh process's first request (TargetApp {@code http 6}, recorded as above) whose name
   * resolution stopped on another thread than it started on: the connect that follows names the
   * stopped resolution's activity as its related one (ConnectStart 00101113 under ResolutionStart
   * 00001113, itself under RequestStart 00001013). It is the request's connect all the same, in
   * global and in live order.
   */
  @Test
  void aConnectUnderAStoppedResolutionIsTheRequestsConnect() throws IOException {
    for (boolean live : List.of(false, true)) {
      List<HttpRecord> records = new ArrayList<>();
      HttpAssembler a = new HttpAssembler(false, records::add);
      try (InputStream in =
              HttpAssemblerTest.class.getResourceAsStream(
                  "/dev/clrscope/monitor/http/net10-http-connect-under-stopped-resolution.nettrace");
          NetTraceReader r = live ? NetTraceReader.openLive(in, false) : NetTraceReader.open(in)) {
        TraceEvent e;
        while ((e = r.next()) != null) {
          a.accept(e);
        }
      }
      a.streamEnded();
      HttpRecord first = records.get(0);
      // ResolutionStart 13:19:06.563815 .. Stop .565840; ConnectStart .566640 .. Stop .582164.
      assertThat(first.phases().get(HttpPhase.DNS))
          .as("live %s", live)
          .isBetween(2_020_000L, 2_030_000L);
      assertThat(first.phases().get(HttpPhase.CONNECT))
          .as("live %s", live)
          .isBetween(15_520_000L, 15_530_000L);
      assertThat(records.subList(1, records.size()))
          .allSatisfy(
              rec -> assertThat(rec.phases()).doesNotContainKeys(HttpPhase.DNS, HttpPhase.CONNECT));
    }
  }
}
