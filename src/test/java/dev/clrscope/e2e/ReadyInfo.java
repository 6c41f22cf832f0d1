package dev.clrscope.e2e;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What TargetApp says about itself in its first stdout line, {@code {"event":"ready",...}}: the
 * facts a diagnostic tool should report back about the process.
 *
 * @param pid {@code Environment.ProcessId}
 * @param commandLine {@code Environment.CommandLine} (under the dotnet host: the dll path and the
 *     arguments, without the host)
 * @param args the arguments {@code Main} received, options included
 * @param runtimeVersion {@code Environment.Version}, e.g. {@code 10.0.12}
 * @param frameworkDescription {@code RuntimeInformation.FrameworkDescription}, e.g. {@code .NET
 *     10.0.12}
 * @param entrypoint the entry assembly's simple name, {@code TargetApp}
 * @param rid {@code RuntimeInformation.RuntimeIdentifier}, e.g. {@code linux-x64}
 * @param os the OS as the runtime names it over the diagnostic IPC: {@code Linux}, {@code Windows},
 *     {@code macOS}, {@code FreeBSD}
 * @param arch {@code RuntimeInformation.ProcessArchitecture} in lower case, as the runtime reports
 *     it over the diagnostic IPC: {@code x64}, {@code arm64}
 * @param processPath {@code Environment.ProcessPath}: the real path of the dotnet host, or of the
 *     apphost
 * @param env the variables asked for with {@code --print-env NAME}; a variable that is not set maps
 *     to {@code null}; empty without the option
 * @param assemblyPath the entry assembly's file
 * @param osDescription {@code RuntimeInformation.OSDescription}
 * @param startedUtc when {@code Main} started
 */
public record ReadyInfo(
    long pid,
    String commandLine,
    List<String> args,
    String runtimeVersion,
    String frameworkDescription,
    String entrypoint,
    String rid,
    String os,
    String arch,
    String processPath,
    Map<String, String> env,
    String assemblyPath,
    String osDescription,
    Instant startedUtc) {

  /** Reads a ready event; fails if {@code node} is not one. */
  public static ReadyInfo fromJson(JsonNode node) {
    if (!"ready".equals(node.path("event").asText())) {
      throw new AssertionError("Not a ready event: " + node);
    }
    List<String> args = new ArrayList<>();
    node.path("args").forEach(arg -> args.add(arg.asText()));
    // LinkedHashMap, as variables that are not set map to null, which Map.copyOf rejects.
    Map<String, String> env = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> variable : node.path("env").properties()) {
      JsonNode value = variable.getValue();
      env.put(variable.getKey(), value.isNull() ? null : value.asText());
    }
    return new ReadyInfo(
        node.path("pid").asLong(),
        text(node, "commandLine"),
        List.copyOf(args),
        text(node, "runtimeVersion"),
        text(node, "frameworkDescription"),
        text(node, "entrypoint"),
        text(node, "rid"),
        text(node, "os"),
        text(node, "arch"),
        text(node, "processPath"),
        Collections.unmodifiableMap(env),
        text(node, "assemblyPath"),
        text(node, "osDescription"),
        node.hasNonNull("startedUtc") ? Instant.parse(node.get("startedUtc").asText()) : null);
  }

  /** The ready event in {@code line}, if the line is one (any other line gives empty). */
  public static Optional<ReadyInfo> tryParse(String line) {
    String trimmed = line.strip();
    if (!trimmed.startsWith("{")) {
      return Optional.empty();
    }
    try {
      JsonNode node = TargetProcess.JSON.readTree(trimmed);
      return "ready".equals(node.path("event").asText())
          ? Optional.of(fromJson(node))
          : Optional.empty();
    } catch (JsonProcessingException e) {
      return Optional.empty();
    }
  }

  /** The first ready event among the lines of {@code output}, e.g. a CLI's captured stdout. */
  public static Optional<ReadyInfo> findIn(String output) {
    return output.lines().map(ReadyInfo::tryParse).flatMap(Optional::stream).findFirst();
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }
}
