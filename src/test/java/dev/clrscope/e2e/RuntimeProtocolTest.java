package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.ipc.ConnectionClosedException;
import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.ServerErrorException;
import dev.clrscope.ipc.client.ConnectionSource;
import dev.clrscope.ipc.client.DiagnosticsClient;
import dev.clrscope.ipc.client.EndpointConnectionSource;
import dev.clrscope.ipc.client.ProcessInfo;
import dev.clrscope.ipc.discovery.EndpointLocator;
import dev.clrscope.ipc.protocol.IpcCommand;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSession;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.ipc.transport.IpcConnection;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The IPC client against the real runtime, command by command: what each command does, how the
 * runtime answers versions it does not know, and how sessions end.
 */
class RuntimeProtocolTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  private static final String RUNTIME = "Microsoft-Windows-DotNETRuntime";

  /** A thread per task: the common pool has one thread on two cores, and readers block. */
  private static final java.util.concurrent.Executor OWN_THREAD =
      task -> {
        Thread t = new Thread(task, "protocol-test");
        t.setDaemon(true);
        t.start();
      };

  private static DiagnosticsClient clientFor(TargetProcess target) {
    return new DiagnosticsClient(
        new EndpointConnectionSource(new EndpointLocator().locate(target.pid()).endpoint()),
        TIMEOUT);
  }

  @Test
  void processInfoReportsTheAppsOwnFacts() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      ProcessInfo info = clientFor(target).processInfo();

      assertThat(info.answeredBy()).isEqualTo(IpcCommand.PROCESS_INFO_3);
      assertThat(info.pid()).isEqualTo(target.pid());
      assertThat(info.entrypointAssembly()).isEqualTo("TargetApp");
      assertThat(info.clrProductVersion()).startsWith(target.ready().runtimeVersion());
      assertThat(info.runtimeIdentifier()).isEqualTo(target.ready().rid());
      assertThat(info.os()).isEqualTo(target.ready().os());
      assertThat(info.arch()).isEqualTo(target.ready().arch());
    }
  }

  @Test
  void environmentIsReadAndWritten() {
    try (TargetProcess target =
        TargetProcess.start(DotnetApps.TARGET_APP, List.of(), Map.of("PROTO_A", "a=b;c"))) {
      DiagnosticsClient client = clientFor(target);

      assertThat(client.environment()).contains("PROTO_A=a=b;c");
      client.setEnvironmentVariable("PROTO_B", "\u00e9t\u00e9 \u2603");
      assertThat(target.send("env PROTO_B").get("value").asText())
          .isEqualTo("\u00e9t\u00e9 \u2603");
      assertThat(client.environment()).contains("PROTO_B=\u00e9t\u00e9 \u2603");
    }
  }

  @Test
  void startupCommandsNeverHarmARunningApp() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      DiagnosticsClient client = clientFor(target);

      // The runtime would load this at once and die of the failure: clrscope refuses to send it.
      assertThatThrownBy(() -> client.applyStartupHook("/nonexistent/Hook.dll"))
          .isInstanceOf(DiagnosticsException.class)
          .hasMessageStartingWith("refusing to send ApplyStartupHook: /nonexistent/Hook.dll");
      // A running runtime acknowledges a startup profiler and ignores it.
      client.setStartupProfiler(UUID.randomUUID(), "/nonexistent/p.so");
      assertThat(target.send("ping").get("event").asText()).isEqualTo("pong");
    }
  }

  @Test
  void attachingAProfilerThatDoesNotExistFailsWithTheRuntimesError() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      DiagnosticsClient client = clientFor(target);

      assertThatThrownBy(
              () ->
                  client.attachProfiler(
                      Duration.ofSeconds(5),
                      UUID.randomUUID(),
                      "/nonexistent/libprofiler.so",
                      "client data".getBytes(StandardCharsets.UTF_8)))
          .isInstanceOf(ServerErrorException.class)
          .hasMessageStartingWith("AttachProfiler (0x0301) failed");
      assertThat(target.send("ping").get("event").asText()).isEqualTo("pong");
    }
  }

  /** Every CollectTracing version .NET 10 knows, each chosen by what the session asks for. */
  @Test
  void everySessionShapeStartsStreamsAndStopsCleanly() throws Exception {
    List<EventPipeProvider> gc = List.of(new EventPipeProvider(RUNTIME, 0x1, 4));
    List<EventPipeSessionConfig> shapes =
        List.of(
            EventPipeSessionConfig.of(16, gc), // v1
            new EventPipeSessionConfig(16, gc, 0, true, false), // v2: no rundown
            new EventPipeSessionConfig(16, gc, 0, false, false), // v3: no stacks
            new EventPipeSessionConfig(16, gc, 0x8, true, false), // v4: rundown keyword
            new EventPipeSessionConfig( // v5: event-id filter
                16,
                List.of(new EventPipeProvider(RUNTIME, 0x1, 4, Map.of(), List.of(1, 2))),
                0,
                true,
                false));
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      DiagnosticsClient client = clientFor(target);
      for (EventPipeSessionConfig shape : shapes) {
        try (EventPipeSession session = client.startEventPipeSession(shape)) {
          CompletableFuture<byte[]> all =
              CompletableFuture.supplyAsync(() -> readAll(session.stream()), OWN_THREAD);
          target.send("gc 1");
          assertThat(session.stop()).isTrue();
          byte[] trace = all.get(30, TimeUnit.SECONDS);
          // A nettrace stream: the magic, then content, ending with the null-reference tag.
          assertThat(new String(trace, 0, 8, StandardCharsets.US_ASCII)).isEqualTo("Nettrace");
          assertThat(trace[trace.length - 1]).isEqualTo((byte) 1);
          assertThat(trace.length).isGreaterThan(100);
        }
      }
    }
  }

  @Test
  void aLosslessSessionNeedsANewerRuntimeAndSaysSo() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      EventPipeSessionConfig lossless =
          new EventPipeSessionConfig(
              16,
              List.of(new EventPipeProvider(RUNTIME, 0x1, 4)),
              EventPipeSessionConfig.DEFAULT_RUNDOWN_KEYWORD,
              true,
              true);

      assertThatThrownBy(() -> clientFor(target).startEventPipeSession(lossless))
          .isInstanceOf(DiagnosticsException.class)
          .hasMessageStartingWith(
              ".NET "
                  + target.ready().runtimeVersion()
                  + " cannot block its threads rather than drop events when its buffer is full"
                  + " (that needs CollectTracing6, .NET 11 or later)")
          .hasMessageNotContaining("too old");
      assertThat(target.send("ping").get("event").asText()).isEqualTo("pong");
    }
  }

  @Test
  void aSessionEndsCleanlyWhenTheTargetExits() throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      EventPipeSession session =
          clientFor(target)
              .startEventPipeSession(
                  EventPipeSessionConfig.of(16, List.of(new EventPipeProvider(RUNTIME, 0x1, 4))));
      CompletableFuture<byte[]> all =
          CompletableFuture.supplyAsync(() -> readAll(session.stream()), OWN_THREAD);
      target.send("gc 2");
      target.send("exit 0");
      target.waitFor(TIMEOUT);

      byte[] trace = all.get(30, TimeUnit.SECONDS);
      assertThat(new String(trace, 0, 8, StandardCharsets.US_ASCII)).isEqualTo("Nettrace");
      // Stopping a session whose target is gone is not an error: it has ended already.
      assertThat(session.stop()).isFalse();
      session.close();
    }
  }

  @Test
  void aReplyCutShortByAnExitingTargetIsReportedAsSuch() throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      // A stopped target accepts the connection (the kernel does) but cannot answer.
      CountDownLatch connected = new CountDownLatch(1);
      EndpointConnectionSource endpoint =
          new EndpointConnectionSource(new EndpointLocator().locate(target.pid()).endpoint());
      DiagnosticsClient client =
          new DiagnosticsClient(
              new ConnectionSource() {
                @Override
                public IpcConnection open(Duration timeout) {
                  IpcConnection c = endpoint.open(timeout);
                  connected.countDown();
                  return c;
                }

                @Override
                public String describe() {
                  return endpoint.describe();
                }
              },
              TIMEOUT);
      signal("STOP", target.pid());
      CompletableFuture<Object> info =
          CompletableFuture.supplyAsync(client::processInfo, OWN_THREAD);
      assertThat(connected.await(30, TimeUnit.SECONDS)).as("connected").isTrue();
      assertThat(info).as("a stopped target answered").isNotDone();
      signal("KILL", target.pid());

      assertThatThrownBy(() -> info.get(30, TimeUnit.SECONDS))
          .hasCauseInstanceOf(ConnectionClosedException.class)
          .hasMessageContaining("it may have exited");
    }
  }

  private static void signal(String name, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).as("kill -%s %d", name, pid).isZero();
  }

  private static byte[] readAll(InputStream in) {
    try {
      return in.readAllBytes();
    } catch (IOException e) {
      return Arrays.copyOf(new byte[0], 0);
    }
  }
}
