package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrThread;
import dev.clrscope.dac.ExceptionInfo;
import dev.clrscope.dac.StackFrame;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code pe|printexception [ADDR]}: an exception, its message, stack and inner exceptions. */
final class PrintException extends SosCommand {
  PrintException() {
    super(
        "printexception",
        List.of("pe"),
        "printexception [ADDR]",
        "An exception (the current thread's, or the one at ADDR): type, message, HResult, the"
            + " stack it was thrown from, and each inner exception the same way",
        SosArgs.Spec.of(Set.of("-nested"), Set.of(), 0, 1));
  }

  /** One exception of the chain: depth 0 the one asked for, 1 its inner exception... */
  record Row(int depth, ExceptionInfo exception, List<ClrStack.Located> stackTrace) {
    List<String> lines() {
      List<String> lines = new ArrayList<>();
      if (stackTrace.isEmpty()) {
        lines.add("(no stack trace: it was never thrown)");
      }
      for (ClrStack.Located f : stackTrace) {
        lines.add(f.text());
      }
      return lines;
    }
  }

  private static final RecordSchema<Row> EXCEPTIONS =
      new RecordSchema<Row>(
              null,
              List.of(
                  Field.of("depth", "INNER", 0, Unit.COUNT, Row::depth),
                  Field.of(
                      "address", "ADDRESS", 0, Unit.ADDRESS, (Row r) -> r.exception().address()),
                  Field.of("type", "TYPE", 0, Unit.TEXT, (Row r) -> r.exception().type()),
                  Field.of("message", "MESSAGE", 0, Unit.TEXT, (Row r) -> r.exception().message()),
                  Field.of(
                      "hresult", "HRESULT", 0, Unit.TEXT, (Row r) -> r.exception().hresultHex()),
                  Field.nested("stackTrace", ClrStack.FRAME, Row::stackTrace)))
          .withPriority(List.of("type", "message", "address"));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrHeap p = context.heap();
    ExceptionInfo e;
    if (args.positional(0) != null) {
      e = p.runtime().exception(args.address(0));
    } else {
      ClrThread t = context.currentThread();
      e = t == null ? null : p.runtime().currentException(t);
      if (e == null) {
        context.note(
            "The current thread"
                + (t == null ? "" : " (OS id " + t.osId() + ")")
                + " has no exception: give its address (pe ADDR), or choose another thread with"
                + " setthread (threads shows each thread's exception)");
      }
    }
    List<Row> rows = new ArrayList<>();
    for (ExceptionInfo x = e; x != null && rows.size() < 100; x = x.inner()) {
      // The frames an exception recorded all hold return addresses, the throw's too.
      List<StackFrame> frames = x.stackTrace();
      rows.add(new Row(rows.size(), x, ClrStack.Located.of(frames, context.lines(frames, false))));
    }
    context.show(Report.builder().rows("exceptions", null, EXCEPTIONS, rows, Row::lines).build());
  }
}
