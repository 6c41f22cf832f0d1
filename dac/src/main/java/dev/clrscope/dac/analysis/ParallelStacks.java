package dev.clrscope.dac.analysis;

import dev.clrscope.dac.ClrRuntime;
import dev.clrscope.dac.ClrThread;
import dev.clrscope.dac.FrameLocation;
import dev.clrscope.dac.StackFrame;
import dev.clrscope.symbols.SourceLine;
import dev.clrscope.symbols.SourceLines;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The managed stacks of every thread merged into one tree, outermost frames at the roots (the
 * triage extensions' {@code pstacks}): threads that share a path share its nodes, so a hang with
 * hundreds of threads reads as a few branches, each with its thread count. With source lines,
 * frames of one method at different lines are different nodes: threads blocked at two places of a
 * method part there.
 */
public final class ParallelStacks {
  private ParallelStacks() {}

  /** A frame shared by {@link #threads()}, and the frames called from it. */
  public static final class Node {
    private final String frame;
    private final SourceLine line;
    private final List<Integer> threads = new ArrayList<>();
    private final Map<String, Node> children = new LinkedHashMap<>();

    Node(String frame, SourceLine line) {
      this.frame = frame;
      this.line = line;
    }

    /** The method (with its signature), or the runtime frame's name in brackets. */
    public String frame() {
      return frame;
    }

    /** Where in the method's source these threads are, or null. */
    public SourceLine line() {
      return line;
    }

    /** The OS ids of the threads whose stacks pass here. */
    public List<Integer> threads() {
      return threads;
    }

    /** The frames these threads called next, most threads first. */
    public List<Node> children() {
      List<Node> c = new ArrayList<>(children.values());
      c.sort(BY_THREADS);
      return c;
    }

    /** The threads whose innermost managed frame this is. */
    public List<Integer> endingHere() {
      List<Integer> ending = new ArrayList<>(threads);
      for (Node c : children.values()) {
        ending.removeAll(c.threads);
      }
      return ending;
    }
  }

  private static final Comparator<Node> BY_THREADS =
      Comparator.comparingInt((Node n) -> -n.threads.size()).thenComparing(n -> n.frame);

  /** The merged stacks of every live thread the runtime knows. */
  public static List<Node> of(ClrRuntime runtime) {
    return of(runtime, null);
  }

  /**
   * The merged stacks of every live thread the runtime knows, each frame with its source line when
   * {@code lines} finds its PDB (null: no lines).
   */
  public static List<Node> of(ClrRuntime runtime, SourceLines lines) {
    Map<Integer, List<StackFrame>> stacks = new LinkedHashMap<>();
    Map<Integer, List<SourceLine>> sourceLines = new LinkedHashMap<>();
    for (ClrThread t : runtime.threads()) {
      if (t.osId() != 0 && !t.isDead()) {
        List<StackFrame> frames = runtime.stack(t.osId());
        stacks.put(t.osId(), frames);
        if (lines != null) {
          List<SourceLine> l = new ArrayList<>(frames.size());
          for (FrameLocation where : runtime.frameLocations(frames, true)) {
            l.add(where == null ? null : where.line(lines));
          }
          sourceLines.put(t.osId(), l);
        }
      }
    }
    return merge(stacks, sourceLines);
  }

  /** The merged tree of these stacks (each innermost frame first), roots most threads first. */
  public static List<Node> merge(Map<Integer, List<StackFrame>> stacks) {
    return merge(stacks, Map.of());
  }

  /**
   * The merged tree of these stacks (each innermost frame first) and their frames' lines (by
   * thread, in the same order; a thread without lines has none), roots most threads first.
   */
  public static List<Node> merge(
      Map<Integer, List<StackFrame>> stacks, Map<Integer, List<SourceLine>> lines) {
    Map<String, Node> roots = new LinkedHashMap<>();
    for (Map.Entry<Integer, List<StackFrame>> e : stacks.entrySet()) {
      List<StackFrame> frames = e.getValue();
      List<SourceLine> frameLines = lines.get(e.getKey());
      Map<String, Node> level = roots;
      for (int i = frames.size() - 1; i >= 0; i--) {
        String name = name(frames.get(i));
        SourceLine line = frameLines == null ? null : frameLines.get(i);
        Node n =
            level.computeIfAbsent(
                line == null ? name : name + " (" + line.text() + ")", k -> new Node(name, line));
        n.threads.add(e.getKey());
        level = n.children;
      }
    }
    List<Node> out = new ArrayList<>(roots.values());
    out.sort(BY_THREADS);
    return out;
  }

  /** A frame's name without what differs between threads (a runtime frame's address). */
  static String name(StackFrame f) {
    if (f.isRuntimeFrame()) {
      return "[" + f.frameName() + "]" + (f.method() == null ? "" : " " + f.method());
    }
    return f.method() != null ? f.method() : "[native]";
  }
}
