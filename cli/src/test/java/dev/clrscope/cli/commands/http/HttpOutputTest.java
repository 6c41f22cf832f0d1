package dev.clrscope.cli.commands.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.cli.render.EightyColumns;
import dev.clrscope.monitor.http.HttpPhase;
import dev.clrscope.monitor.http.HttpRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a narrow terminal keeps of {@code http}'s rows. */
class HttpOutputTest {
  private static final String URL = "http://orders.local:5000/api/orders/1234?*";

  /** A request on a pooled connection: no DNS, connect or TLS; a slow server. */
  private static HttpRecord pooled() {
    return new HttpRecord(
        Instant.parse("2026-01-02T03:04:05Z"),
        0,
        "orders.local:5000",
        URL,
        200,
        801_717_000L,
        800_900_000L,
        Map.of(
            HttpPhase.REQUEST, 100_000L,
            HttpPhase.SERVER, 800_500_000L,
            HttpPhase.RESPONSE_HEADERS, 28_000L,
            HttpPhase.RESPONSE_CONTENT, 900_000L),
        "1.1",
        3L,
        List.of(),
        null);
  }

  /**
   * The case at 80 columns: the URL was dropped while DNS and TLS, all {@code -}, stayed.
   * The URL stays whole, with the status, the duration, the time to first byte and the server's
   * share; a new connection's phases go first.
   */
  @Test
  void atEightyColumnsTheUrlStaysAndTheServersShareShows() {
    List<String> lines = EightyColumns.stream(HttpOutput.stream(), pooled());
    assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
    assertThat(lines.get(0))
        .contains("URL")
        .contains("STATUS")
        .contains("DURATION_MS")
        .contains("TTFB_MS")
        .doesNotContain("DNS_MS")
        .doesNotContain("TLS_MS");
    assertThat(lines.get(1)).contains(URL).contains("200").contains("801.717").contains("800.900");
  }

  /** The phases that follow one another add up to the duration, with what none accounts for. */
  @Test
  void thePhasesAddUp() {
    HttpRecord r = pooled();
    double sum = r.otherMillis();
    for (HttpPhase p : HttpPhase.values()) {
      sum += r.phaseMillis(p) == null ? 0 : r.phaseMillis(p);
    }
    assertThat(sum).isCloseTo(r.durationMillis(), org.assertj.core.data.Offset.offset(1e-9));
    assertThat(r.otherMillis()).isCloseTo(0.189, org.assertj.core.data.Offset.offset(1e-9));
  }
}
