package dev.clrscope.ipc.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IpcCommandTest {

  /** Codes and names from the protocol notes. */
  @ParameterizedTest
  @CsvSource({
    "GENERATE_CORE_DUMP, GenerateCoreDump, 0x0101",
    "GENERATE_CORE_DUMP_2, GenerateCoreDump2, 0x0102",
    "GENERATE_CORE_DUMP_3, GenerateCoreDump3, 0x0103",
    "STOP_TRACING, StopTracing, 0x0201",
    "COLLECT_TRACING, CollectTracing, 0x0202",
    "COLLECT_TRACING_2, CollectTracing2, 0x0203",
    "COLLECT_TRACING_3, CollectTracing3, 0x0204",
    "COLLECT_TRACING_4, CollectTracing4, 0x0205",
    "COLLECT_TRACING_5, CollectTracing5, 0x0206",
    "COLLECT_TRACING_6, CollectTracing6, 0x0207",
    "ATTACH_PROFILER, AttachProfiler, 0x0301",
    "STARTUP_PROFILER, StartupProfiler, 0x0302",
    "PROCESS_INFO, ProcessInfo, 0x0400",
    "RESUME_RUNTIME, ResumeRuntime, 0x0401",
    "PROCESS_ENVIRONMENT, ProcessEnvironment, 0x0402",
    "SET_ENVIRONMENT_VARIABLE, SetEnvironmentVariable, 0x0403",
    "PROCESS_INFO_2, ProcessInfo2, 0x0404",
    "ENABLE_PERF_MAP, EnablePerfMap, 0x0405",
    "DISABLE_PERF_MAP, DisablePerfMap, 0x0406",
    "APPLY_STARTUP_HOOK, ApplyStartupHook, 0x0407",
    "PROCESS_INFO_3, ProcessInfo3, 0x0408"
  })
  void codesAndNamesMatchTheProtocol(IpcCommand command, String name, String code) {
    int value = Integer.decode(code);
    assertThat(command.set().code()).isEqualTo(value >> 8);
    assertThat(command.id()).isEqualTo(value & 0xFF);
    assertThat(command.protocolName()).isEqualTo(name);
    assertThat(command.describe()).isEqualTo(name + " (" + code + ")");
  }

  @Test
  void describesProcessInfo3() {
    assertThat(IpcCommand.PROCESS_INFO_3.describe()).isEqualTo("ProcessInfo3 (0x0408)");
    assertThat(IpcCommand.values()).hasSize(21);
  }

  @Test
  void commandSetCodes() {
    assertThat(CommandSet.fromCode(0x01)).isEqualTo(CommandSet.DUMP);
    assertThat(CommandSet.fromCode(0x02)).isEqualTo(CommandSet.EVENT_PIPE);
    assertThat(CommandSet.fromCode(0x03)).isEqualTo(CommandSet.PROFILER);
    assertThat(CommandSet.fromCode(0x04)).isEqualTo(CommandSet.PROCESS);
    assertThat(CommandSet.fromCode(0xFF)).isEqualTo(CommandSet.SERVER);
    assertThat(CommandSet.fromCode(0x05)).isNull();
    assertThat(ServerResponse.OK.id()).isZero();
    assertThat(ServerResponse.ERROR.id()).isEqualTo(0xFF);
  }
}
