package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import java.util.List;

/** {@code help [COMMAND]}: the commands, or how one is used. */
final class Help extends SosCommand {
  Help() {
    super(
        "help",
        List.of("soshelp", "?"),
        "help [COMMAND]",
        "The commands with what each shows, or how one command is used",
        SosArgs.Spec.of(java.util.Set.of(), java.util.Set.of(), 0, 1));
  }

  private static final RecordSchema<SosCommand> COMMANDS =
      new RecordSchema<SosCommand>(
              null,
              List.of(
                  Field.of("command", "COMMAND", 0, Unit.TEXT, SosCommand::name),
                  Field.of("aliases", "ALIASES", 0, Unit.WORDS, SosCommand::aliases),
                  Field.of("usage", "USAGE", 0, Unit.TEXT, SosCommand::synopsis)
                      .only(Field.Shown.DATA),
                  Field.of("summary", "WHAT IT SHOWS", 0, Unit.TEXT, SosCommand::summary)))
          .withPriority(List.of("command", "summary"));

  private static final RecordSchema<SosCommand> ONE =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("usage", "Usage:", 0, Unit.TEXT, SosCommand::synopsis),
              Field.of("aliases", "Aliases:", 0, Unit.WORDS, SosCommand::aliases),
              Field.of("summary", "Shows:", 0, Unit.TEXT, SosCommand::summary)));

  @Override
  boolean readsTarget(SosArgs args) {
    return false;
  }

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    String name = args.positional(0);
    if (name == null) {
      context.show(
          Report.builder()
              .rows(null, null, COMMANDS, context.commands().all())
              .note("Addresses are hexadecimal, with or without 0x. exit (or quit, q) ends.")
              .build());
      return;
    }
    SosCommand c = context.commands().find(name);
    if (c == null) {
      throw new SosUsageException("help: no command " + name + " (help lists them)");
    }
    context.show(Report.record(ONE, c));
  }
}
