package dev.clrscope.cli.commands;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.attach.TargetResolver;
import dev.clrscope.cli.options.TargetOptions;
import dev.clrscope.cli.options.TargetSpec;
import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.discovery.EndpointLocator;
import picocli.CommandLine.Mixin;

/**
 * A command that talks to one runtime. The base resolves the target, runs the command, always lets
 * a runtime that waits at startup continue (even when the command failed: clrscope never leaves a
 * target stuck), and for a launched child passes its exit code through.
 */
public abstract class AttachingCommand extends ClrscopeSubcommand {
  /** -p, -n, --diagnostic-port, --timeout and -- COMMAND. */
  @Mixin protected TargetOptions target;

  /**
   * Does the command's work on an attached target.
   *
   * @return the command's own exit code
   */
  protected abstract int run(AttachedTarget attached);

  /**
   * Checks the command's own options before anything is attached or launched, so that a mistake
   * never leaves a launched app running or a port waiting. Throws ParameterException.
   */
  protected void validate() {}

  /** Whether to resume a waiting runtime before {@link #run} rather than after it. */
  protected boolean releaseFirst() {
    return false;
  }

  @Override
  public final Integer call() {
    TargetSpec spec = target.spec();
    validate();
    try (AttachedTarget attached = new TargetResolver(new EndpointLocator(), err()).attach(spec)) {
      int own;
      try {
        if (releaseFirst()) {
          attached.release();
        }
        own = run(attached);
      } finally {
        try {
          attached.release();
        } catch (DiagnosticsException e) {
          // The target may have exited; the command's own outcome is what to report.
        }
      }
      return attached.exitCode(own);
    }
  }
}
