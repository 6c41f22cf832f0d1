package dev.clrscope.ipc.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.ipc.protocol.IpcCommand;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.ipc.testing.Hex;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CollectTracingEncoderTest {
  private static final long DEFAULT_RUNDOWN = 0x80020139L;

  /** keywords 0x100003801D, level 4, name "Pv", arguments k=v. */
  private static final EventPipeProvider WITH_ARGS =
      new EventPipeProvider("Pv", 0x100003801DL, 4, Map.of("k", "v"), List.of());

  private static final String WITH_ARGS_HEX =
      "1d 80 03 00 10 00 00 00" // keywords
          + " 04 00 00 00" // level
          + " 03 00 00 00 50 00 76 00 00 00" // "Pv"
          + " 04 00 00 00 6b 00 3d 00 76 00 00 00"; // "k=v"

  private static final EventPipeProvider PLAIN = new EventPipeProvider("Q", 0, 5);

  private static final String PLAIN_HEX =
      "00 00 00 00 00 00 00 00 05 00 00 00 02 00 00 00 51 00 00 00 00 00 00 00";

  private static EventPipeSessionConfig config(
      long rundown, boolean stacks, boolean lossless, EventPipeProvider... providers) {
    return new EventPipeSessionConfig(256, List.of(providers), rundown, stacks, lossless);
  }

  private static String encode(IpcCommand version, EventPipeSessionConfig c) {
    return Hex.of(CollectTracingEncoder.encode(version, c));
  }

  @Test
  void defaultRundownWithStacksUsesVersion1() {
    EventPipeSessionConfig c = EventPipeSessionConfig.of(256, List.of(WITH_ARGS));
    assertThat(CollectTracingEncoder.versionFor(c)).isEqualTo(IpcCommand.COLLECT_TRACING);
  }

  @Test
  void rundownOffUsesVersion2() {
    assertThat(CollectTracingEncoder.versionFor(config(0, true, false, PLAIN)))
        .isEqualTo(IpcCommand.COLLECT_TRACING_2);
  }

  @Test
  void stacksOffUsesVersion3WhateverTheClassicRundown() {
    assertThat(CollectTracingEncoder.versionFor(config(DEFAULT_RUNDOWN, false, false, PLAIN)))
        .isEqualTo(IpcCommand.COLLECT_TRACING_3);
    assertThat(CollectTracingEncoder.versionFor(config(0, false, false, PLAIN)))
        .isEqualTo(IpcCommand.COLLECT_TRACING_3);
  }

  @Test
  void customRundownKeywordUsesVersion4() {
    assertThat(CollectTracingEncoder.versionFor(config(0x1, true, false, PLAIN)))
        .isEqualTo(IpcCommand.COLLECT_TRACING_4);
    assertThat(CollectTracingEncoder.versionFor(config(0x1, false, false, PLAIN)))
        .isEqualTo(IpcCommand.COLLECT_TRACING_4);
  }

  @Test
  void eventIdFilterUsesVersion5() {
    EventPipeProvider filtered = new EventPipeProvider("F", 1, 4, Map.of(), List.of(7));
    assertThat(CollectTracingEncoder.versionFor(config(0x1, false, false, PLAIN, filtered)))
        .isEqualTo(IpcCommand.COLLECT_TRACING_5);
  }

  @Test
  void losslessUsesVersion6() {
    EventPipeProvider filtered = new EventPipeProvider("F", 1, 4, Map.of(), List.of(7));
    assertThat(CollectTracingEncoder.versionFor(config(DEFAULT_RUNDOWN, true, true, PLAIN)))
        .isEqualTo(IpcCommand.COLLECT_TRACING_6);
    assertThat(CollectTracingEncoder.versionFor(config(0, false, true, filtered)))
        .isEqualTo(IpcCommand.COLLECT_TRACING_6);
  }

  @Test
  void eachVersionNamesTheReleaseThatBroughtIt() {
    assertThat(CollectTracingEncoder.since(IpcCommand.COLLECT_TRACING_6)).isEqualTo(".NET 11");
    assertThat(CollectTracingEncoder.since(IpcCommand.COLLECT_TRACING_5)).isEqualTo(".NET 10");
    // 8.0.31 answers UNKNOWN_COMMAND to both; 9.0.20 knows both.
    assertThat(CollectTracingEncoder.since(IpcCommand.COLLECT_TRACING_4)).isEqualTo(".NET 9");
    assertThat(CollectTracingEncoder.since(IpcCommand.COLLECT_TRACING_3)).isEqualTo(".NET 9");
    assertThat(CollectTracingEncoder.since(IpcCommand.COLLECT_TRACING_2)).isEqualTo(".NET 5");
  }

  @Test
  void withoutVersion3StacksGoOnAndNothingElseChanges() {
    CollectTracingEncoder.Fallback f =
        CollectTracingEncoder.fallback(
            IpcCommand.COLLECT_TRACING_3, config(0, false, false, WITH_ARGS));
    assertThat(f.config()).isEqualTo(config(0, true, false, WITH_ARGS));
    assertThat(CollectTracingEncoder.versionFor(f.config()))
        .isEqualTo(IpcCommand.COLLECT_TRACING_2);
    assertThat(f.givesUp())
        .isEqualTo(
            "cannot turn event stacks off (CollectTracing3, .NET 9): its events carry their"
                + " stacks, a little more work for it");
  }

  @Test
  void withoutVersion4TheClassicRundownStandsInAndWhatItLacksIsNamed() {
    CollectTracingEncoder.Fallback loader =
        CollectTracingEncoder.fallback(
            IpcCommand.COLLECT_TRACING_4, config(0x8, false, false, PLAIN));
    assertThat(loader.config()).isEqualTo(config(DEFAULT_RUNDOWN, false, false, PLAIN));
    assertThat(loader.givesUp())
        .isEqualTo(
            "cannot choose the rundown's keywords (CollectTracing4, .NET 9): the session ends with"
                + " the classic rundown (0x80020139) instead of 0x8");
    assertThat(
            CollectTracingEncoder.fallback(
                    IpcCommand.COLLECT_TRACING_4, config(0x100000008L, true, false, PLAIN))
                .givesUp())
        .endsWith("instead of 0x100000008, without 0x100000000");
  }

  @Test
  void withoutVersion5TheFiltersGo() {
    EventPipeProvider filtered = new EventPipeProvider("F", 1, 4, Map.of(), List.of(7));
    CollectTracingEncoder.Fallback f =
        CollectTracingEncoder.fallback(
            IpcCommand.COLLECT_TRACING_5, config(0, false, false, filtered));
    assertThat(f.config()).isEqualTo(config(0, false, false, new EventPipeProvider("F", 1, 4)));
    assertThat(f.givesUp()).startsWith("cannot filter a provider's events by id (CollectTracing5");
  }

  @Test
  void withoutVersion2TheClassicRundownIsSent() {
    CollectTracingEncoder.Fallback f =
        CollectTracingEncoder.fallback(IpcCommand.COLLECT_TRACING_2, config(0, true, false, PLAIN));
    assertThat(CollectTracingEncoder.versionFor(f.config())).isEqualTo(IpcCommand.COLLECT_TRACING);
  }

  @Test
  void losslessAndVersion1HaveNoStandIn() {
    assertThat(
            CollectTracingEncoder.fallback(
                IpcCommand.COLLECT_TRACING_6, config(0, true, true, PLAIN)))
        .isNull();
    assertThat(
            CollectTracingEncoder.fallback(
                IpcCommand.COLLECT_TRACING, config(DEFAULT_RUNDOWN, true, false, PLAIN)))
        .isNull();
    assertThat(CollectTracingEncoder.whyNeeded(IpcCommand.COLLECT_TRACING_6))
        .contains("CollectTracing6, .NET 11");
  }

  @Test
  void encodesVersion1() {
    assertThat(
            encode(
                IpcCommand.COLLECT_TRACING,
                EventPipeSessionConfig.of(256, List.of(WITH_ARGS, PLAIN))))
        .isEqualTo(
            "00 01 00 00" // buffer 256 MB
                + " 01 00 00 00" // format nettrace
                + " 02 00 00 00 " // two providers
                + WITH_ARGS_HEX
                + " "
                + PLAIN_HEX);
  }

  @Test
  void encodesVersion2() {
    assertThat(encode(IpcCommand.COLLECT_TRACING_2, config(0, true, false, WITH_ARGS)))
        .isEqualTo("00 01 00 00 01 00 00 00 00 01 00 00 00 " + WITH_ARGS_HEX);
  }

  @Test
  void encodesVersion3() {
    assertThat(
            encode(IpcCommand.COLLECT_TRACING_3, config(DEFAULT_RUNDOWN, false, false, WITH_ARGS)))
        .isEqualTo(
            "00 01 00 00 01 00 00 00"
                + " 01" // rundown on
                + " 00" // no stacks
                + " 01 00 00 00 "
                + WITH_ARGS_HEX);
    assertThat(encode(IpcCommand.COLLECT_TRACING_3, config(0, false, false, PLAIN)))
        .isEqualTo("00 01 00 00 01 00 00 00 00 00 01 00 00 00 " + PLAIN_HEX);
  }

  @Test
  void encodesVersion4() {
    assertThat(
            encode(
                IpcCommand.COLLECT_TRACING_4,
                config(0x0000_0040_0000_0008L, true, false, WITH_ARGS)))
        .isEqualTo(
            "00 01 00 00 01 00 00 00"
                + " 08 00 00 00 40 00 00 00" // rundown keyword
                + " 01" // stacks
                + " 01 00 00 00 "
                + WITH_ARGS_HEX);
  }

  @Test
  void encodesVersion5WithEventFilters() {
    EventPipeProvider filtered =
        new EventPipeProvider("Pv", 0x100003801DL, 4, Map.of("k", "v"), List.of(1, 0x123));
    assertThat(
            encode(
                IpcCommand.COLLECT_TRACING_5,
                config(DEFAULT_RUNDOWN, false, false, filtered, PLAIN)))
        .isEqualTo(
            "00 00 00 00" // session type: streaming
                + " 00 01 00 00 01 00 00 00"
                + " 39 01 02 80 00 00 00 00" // rundown keyword
                + " 00" // no stacks
                + " 02 00 00 00 "
                + WITH_ARGS_HEX
                + " 01 02 00 00 00 01 00 00 00 23 01 00 00 " // filter on, ids 1 and 0x123
                + PLAIN_HEX
                + " 00 00 00 00 00"); // no filter
  }

  @Test
  void encodesVersion6WithBlockingBufferMode() {
    assertThat(encode(IpcCommand.COLLECT_TRACING_6, config(0, true, true, PLAIN)))
        .isEqualTo(
            "00 00 00 00 00 01 00 00 01 00 00 00 00 00 00 00 00 00 00 00 01 01 00 00 00 "
                + PLAIN_HEX
                + " 00 00 00 00 00"
                + " 01 00 00 00"); // block
  }

  @Test
  void providerWireFormatHasNullArgumentsAsCountZero() {
    dev.clrscope.ipc.codec.PayloadWriter w = new dev.clrscope.ipc.codec.PayloadWriter();
    DiagnosticsClient.writeProvider(w, PLAIN);
    assertThat(Hex.of(w.toByteArray())).isEqualTo(PLAIN_HEX);
  }

  @Test
  void multipleArgumentsKeepTheirOrderAndQuoting() {
    Map<String, String> args = new LinkedHashMap<>();
    args.put("Metrics", "a;b");
    args.put("Id", "7");
    EventPipeProvider p = new EventPipeProvider("M", 2, 4, args, List.of());
    dev.clrscope.ipc.codec.PayloadWriter w = new dev.clrscope.ipc.codec.PayloadWriter();
    DiagnosticsClient.writeProvider(w, p);
    assertThat(Hex.of(w.toByteArray()))
        .isEqualTo(
            Hex.of(
                Hex.concat(
                    Hex.u64(2), Hex.u32(4), Hex.string("M"), Hex.string("Metrics=\"a;b\";Id=7"))));
  }
}
