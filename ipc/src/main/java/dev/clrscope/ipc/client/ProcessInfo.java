package dev.clrscope.ipc.client;

import dev.clrscope.ipc.protocol.IpcCommand;
import java.util.UUID;

/**
 * What a runtime says about its process.
 *
 * @param pid the process id, as the runtime sees it (inside a container, the container's pid)
 * @param runtimeCookie a GUID unique to this runtime instance
 * @param commandLine the command line
 * @param os "Windows", "Linux" or "macOS"
 * @param arch "x86", "x64", "arm32", "arm64", ...
 * @param entrypointAssembly the entry assembly's name; {@code null} before ProcessInfo2
 * @param clrProductVersion the runtime's version, such as {@code 10.0.12+abc}; {@code null} before
 *     ProcessInfo2
 * @param runtimeIdentifier the RID, such as {@code linux-x64}; {@code null} before ProcessInfo3
 * @param answeredBy the command version the runtime answered
 */
public record ProcessInfo(
    long pid,
    UUID runtimeCookie,
    String commandLine,
    String os,
    String arch,
    String entrypointAssembly,
    String clrProductVersion,
    String runtimeIdentifier,
    IpcCommand answeredBy) {}
