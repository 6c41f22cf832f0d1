package dev.clrscope.cli.commands.exceptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.cli.render.EightyColumns;
import dev.clrscope.monitor.exceptions.ExceptionRecord;
import dev.clrscope.symbols.Frame;
import dev.clrscope.symbols.SourceLine;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a narrow terminal keeps of {@code exceptions}' rows. */
class ExceptionsOutputTest {
  /**
   * The case at 80 columns: only TIME, THREAD and TYPE were kept. What was thrown and where
   * the user's code threw it stay; the time and thread go first.
   */
  @Test
  void atEightyColumnsTheTypeAndTheUsersThrowSiteStay() {
    ExceptionRecord r =
        new ExceptionRecord(
            Instant.parse("2026-01-02T03:04:05Z"),
            0,
            4242,
            "System.FormatException",
            "The input string 'x' was not in a correct format.",
            0x80131537L,
            List.of(),
            new Frame("UxApp.Importer.ReadRow", new SourceLine("/src/Importer.cs", 57)),
            new Frame("System.Number.ThrowFormatException", null),
            List.of(),
            true,
            false,
            "UxApp.Importer::Run");
    List<String> lines = EightyColumns.stream(ExceptionsOutput.stream(false), r);
    assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
    assertThat(lines.get(0)).contains("TYPE").contains("THROW SITE").doesNotContain("THREAD");
    assertThat(lines.get(1))
        .contains("System.FormatException")
        .contains("UxApp.Importer.ReadRow (Importer.cs:57)");
  }
}
