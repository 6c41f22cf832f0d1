package dev.clrscope.cli.commands.analyze;

import java.util.List;

/** {@code exit|quit|q}: ends analyze (a live process is already running free). */
final class Exit extends SosCommand {
  Exit() {
    super("exit", List.of("quit", "q"), "exit", "Ends analyze", SosArgs.Spec.none());
  }

  @Override
  boolean readsTarget(SosArgs args) {
    return false;
  }

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    // The shell ends on it; nothing to show.
  }
}
