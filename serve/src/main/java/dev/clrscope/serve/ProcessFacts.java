package dev.clrscope.serve;

/**
 * What identifies a watched process in every series: its labels.
 *
 * @param pid the pid as seen from the host
 * @param name its name (the entry assembly for {@code dotnet app.dll}), or empty
 * @param runtimeVersion the runtime's version (ProcessInfo2), or empty
 * @param commandLine its command line, or empty
 */
public record ProcessFacts(long pid, String name, String runtimeVersion, String commandLine) {}
