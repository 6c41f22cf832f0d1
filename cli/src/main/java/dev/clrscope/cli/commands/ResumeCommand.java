package dev.clrscope.cli.commands;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.render.Result;
import picocli.CommandLine.Command;

/**
 * {@code clrscope resume}: let a runtime that waits at startup run. A runtime waits when it was
 * started with a suspending diagnostic port ({@code DOTNET_DiagnosticPorts=...,suspend}, or {@code
 * DOTNET_DefaultDiagnosticPortSuspend=1}) and nothing has resumed it yet: for example the child of
 * a clrscope that was killed ({@code kill -9}) between launching and resuming it.
 */
@Command(
    name = "resume",
    mixinStandardHelpOptions = true,
    description = {
      "Let a .NET runtime that waits at startup for a diagnostic tool run (ResumeRuntime). For a"
          + " process left suspended by a tool that was killed before it resumed it. Harmless for"
          + " a running process."
    })
public final class ResumeCommand extends AttachingCommand {
  @Override
  protected Result run(AttachedTarget attached) {
    attached.client().resumeRuntime();
    err().println("Resumed " + attached.describe() + " (a running process is not affected)");
    return Result.done();
  }
}
