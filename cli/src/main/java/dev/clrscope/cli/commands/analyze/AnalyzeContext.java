package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Report;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrRuntime;
import dev.clrscope.dac.ClrThread;
import dev.clrscope.dac.DacSession;
import dev.clrscope.dac.FrameLocation;
import dev.clrscope.dac.HeapProblems;
import dev.clrscope.dac.StackFrame;
import dev.clrscope.symbols.SourceLine;
import dev.clrscope.symbols.SourceLines;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What a command at analyze's prompt works with: the target (for a live process, paused while the
 * command runs), the renderer of the chosen format, stderr for notes, and the session's state that
 * outlives one command (the current thread, as {@code setthread} chose it).
 */
final class AnalyzeContext {
  private final CommandTable commands;
  private final Session session;
  private DacSession target;
  private Renderer renderer;
  private PrintStream err;

  /** What lasts from one command to the next. */
  static final class Session {
    /** The OS id of the thread {@code setthread} chose, or 0 for the default. */
    int currentThread;

    /** Where frames' PDBs are found (each looked for once a session), or null for no lines. */
    final SourceLines lines;

    /** How many of the lines' problems were said already. */
    int problemsSaid;

    /**
     * What the last command that met a heap not read whole said of it ({@link
     * HeapProblems#summary}), or null when every heap was read whole: with {@code -c} or stdin, the
     * run then ends with exit 1.
     */
    String heapNotWhole;

    Session(SourceLines lines) {
      this.lines = lines;
    }
  }

  AnalyzeContext(CommandTable commands, Session session) {
    this.commands = commands;
    this.session = session;
  }

  /** Sets what the next command works with: a session on the target, or null for none. */
  void use(DacSession t, Renderer r, PrintStream e) {
    target = t;
    renderer = r;
    err = e;
  }

  /** The target's runtime: threads, stacks, modules, types, exceptions, statics. */
  ClrRuntime runtime() {
    return target.runtime();
  }

  /** The target's GC heap: segments, the walk, objects, roots, the exact graph. */
  ClrHeap heap() {
    return target.heap();
  }

  /**
   * The target's exact heap graph (retained sizes, dominators, reachability): the heap view's
   * snapshot, read once for a core, again for each pause of a live process, whose heap moved
   * meanwhile.
   */
  dev.clrscope.heapwalk.HeapSnapshot heapGraph() {
    dev.clrscope.heapwalk.HeapSnapshot graph = target.heap().snapshot();
    dev.clrscope.heapwalk.WalkProblems problems = graph.walkProblems();
    if (problems.heapNotWhole()) {
      problems.details().forEach(d -> note("warning: " + d));
      heapNotWhole(HeapProblems.of(problems));
    }
    return graph;
  }

  /**
   * Says on stderr that what the command shows is of part of the heap only, and remembers it for
   * the run's exit status.
   */
  void heapNotWhole(HeapProblems problems) {
    note("warning: the heap was not read whole: " + problems.summary());
    session.heapNotWhole = problems.summary();
  }

  /** Whether the object at an address is live: in the heap's graph and reached from a root. */
  java.util.function.LongPredicate live() {
    return reached(true);
  }

  /**
   * Whether the object at an address is dead: in the heap's graph (an object, not free space) and
   * reached from no root, garbage the GC has not collected yet.
   */
  java.util.function.LongPredicate dead() {
    return reached(false);
  }

  private java.util.function.LongPredicate reached(boolean wanted) {
    dev.clrscope.heapwalk.HeapSnapshot graph = heapGraph();
    return address -> {
      int i = graph.indexOf(address);
      return i >= 0 && graph.isReachable(i) == wanted;
    };
  }

  /** The renderer of the chosen format. */
  Renderer renderer() {
    return renderer;
  }

  /** Draws a whole result. */
  void show(Report report) {
    renderer.report(report);
  }

  /**
   * The source lines of a stack's frames, in order (null where none): all but the innermost frame
   * hold return addresses ({@link ClrRuntime#frameLocations}); what kept lines from a module is
   * said once a session, on stderr.
   *
   * @param innermostExact whether the first frame's IP is where its thread is (a thread's walk)
   *     rather than a return address (an exception's recorded frames)
   */
  List<SourceLine> lines(List<StackFrame> frames, boolean innermostExact) {
    List<SourceLine> lines = new ArrayList<>(frames.size());
    if (session.lines == null) {
      frames.forEach(f -> lines.add(null));
      return lines;
    }
    for (FrameLocation where : target.runtime().frameLocations(frames, innermostExact)) {
      lines.add(where == null ? null : where.line(session.lines));
    }
    sayLineProblems();
    return lines;
  }

  /** Says on stderr, once a session, what kept lines from a module (a PDB refused or damaged). */
  void sayLineProblems() {
    if (session.lines == null) {
      return;
    }
    List<String> problems = session.lines.problems();
    for (int i = session.problemsSaid; i < problems.size(); i++) {
      err.println("analyze: " + problems.get(i));
    }
    session.problemsSaid = problems.size();
  }

  /** Where frames' PDBs are found, or null for no lines. */
  SourceLines sourceLines() {
    return session.lines;
  }

  /** A note for a person, on stderr (never among the data). */
  void note(String text) {
    err.println(text);
  }

  /** Every command, for help. */
  CommandTable commands() {
    return commands;
  }

  Session session() {
    return session;
  }

  /**
   * The current thread: the one {@code setthread} chose, else the process's main thread (its OS id
   * is the pid), else the first the runtime lists; null when the runtime has no thread.
   */
  ClrThread currentThread() {
    List<ClrThread> threads = target.runtime().threads();
    int wanted = session.currentThread != 0 ? session.currentThread : target.pid();
    for (ClrThread t : threads) {
      if (t.osId() == wanted) {
        return t;
      }
    }
    for (ClrThread t : threads) {
      if (t.osId() != 0) {
        return t;
      }
    }
    return null;
  }
}
