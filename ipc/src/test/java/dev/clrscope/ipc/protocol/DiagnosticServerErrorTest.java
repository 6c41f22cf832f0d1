package dev.clrscope.ipc.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DiagnosticServerErrorTest {

  /** The table in the protocol notes, typed in independently of the enum. */
  @ParameterizedTest
  @CsvSource({
    "80131384, BAD_ENCODING",
    "80131385, UNKNOWN_COMMAND",
    "80131386, UNKNOWN_MAGIC",
    "80131515, NOT_SUPPORTED",
    "80004005, FAIL",
    "8013135B, NOT_YET_AVAILABLE",
    "80131371, RUNTIME_UNINITIALIZED",
    "80070057, INVALID_ARGUMENT",
    "8007007A, INSUFFICIENT_BUFFER",
    "800000CB, ENVVAR_NOT_FOUND",
    "8013136A, PROFILER_ALREADY_ACTIVE"
  })
  void mapsEveryTableEntry(String hex, DiagnosticServerError expected) {
    int hresult = Integer.parseUnsignedInt(hex, 16);
    assertThat(DiagnosticServerError.fromHresult(hresult)).isEqualTo(expected);
    assertThat(expected.hresult()).isEqualTo(hresult);
    assertThat(expected.meaning()).isNotBlank();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, -1, 0x80131387, 0x80070005, 0x12345678})
  void unknownCodesAreOther(int hresult) {
    assertThat(DiagnosticServerError.fromHresult(hresult)).isEqualTo(DiagnosticServerError.OTHER);
  }

  @org.junit.jupiter.api.Test
  void everyEntryButOtherHasADistinctCode() {
    Set<Integer> codes = new java.util.HashSet<>();
    for (DiagnosticServerError e : EnumSet.complementOf(EnumSet.of(DiagnosticServerError.OTHER))) {
      assertThat(codes.add(e.hresult())).as(e.name()).isTrue();
      assertThat(DiagnosticServerError.fromHresult(e.hresult())).isEqualTo(e);
    }
    assertThat(codes).hasSize(DiagnosticServerError.values().length - 1);
  }
}
