package dev.clrscope.heapwalk;

import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.NetTraceWriter;
import dev.clrscope.nettrace.TraceEvent;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The heaps of the .gcdump files the real dotnet-gcdump wrote (../shared/fixtures/gcdump) as the
 * runtime would send them in a walk ({@link SyntheticWalk}), read back as events.
 */
final class FixtureWalks {
  private FixtureWalks() {}

  /** A .gcdump of ../shared/fixtures/gcdump, written by the real dotnet-gcdump. */
  static Path fixture(String name) {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      Path candidate = p.resolve("../shared/fixtures/gcdump").resolve(name).normalize();
      if (Files.exists(candidate)) {
        return candidate;
      }
      candidate = p.resolve("shared/fixtures/gcdump").resolve(name);
      if (Files.exists(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError("shared/fixtures/gcdump/" + name + " not found (tests must not skip)");
  }

  /** The objects of {@code s} (pseudo-nodes of a .gcdump left out), with their references. */
  static List<SyntheticWalk.Node> nodesOf(HeapSnapshot s) {
    List<SyntheticWalk.Node> nodes = new ArrayList<>();
    for (int i = 0; i < s.objectCount(); i++) {
      if (isObject(s, i)) {
        int[] refs = s.referencesOf(i);
        List<Long> to = new ArrayList<>();
        for (int r : refs) {
          if (isObject(s, r)) {
            to.add(s.addressOf(r));
          }
        }
        nodes.add(
            new SyntheticWalk.Node(
                s.addressOf(i),
                s.sizeOf(i),
                s.typeNameOf(i),
                to.stream().mapToLong(Long::longValue).toArray()));
      }
    }
    return nodes;
  }

  /** Whether object {@code i} of a .gcdump is an object rather than a group of roots. */
  static boolean isObject(HeapSnapshot s, int i) {
    String type = s.typeNameOf(i);
    return !(s.sizeOf(i) == 0 && (type.startsWith("[") || type.equals("UNDEFINED")));
  }

  /**
   * The objects a .gcdump's groups of roots hold, each as a root of its kind ({@code [local vars]}
   * a stack root, {@code [static var T.f]} a static field, handles and the rest handles).
   */
  static List<SyntheticWalk.Root> rootsOf(HeapSnapshot s) {
    List<SyntheticWalk.Root> roots = new ArrayList<>();
    for (int i = 0; i < s.objectCount(); i++) {
      if (isObject(s, i)) {
        continue;
      }
      String group = s.typeNameOf(i);
      for (int r : s.referencesOf(i)) {
        if (!isObject(s, r)) {
          continue;
        }
        if (group.startsWith("[static var ")) {
          String name = group.substring(group.lastIndexOf('.') + 1, group.length() - 1);
          roots.add(new SyntheticWalk.Root(s.addressOf(r), HeapSnapshotBuilder.STATIC_ROOT, name));
        } else {
          roots.add(
              new SyntheticWalk.Root(s.addressOf(r), group.equals("[local vars]") ? 0 : 2, null));
        }
      }
    }
    return roots;
  }

  /** The walk's events (and the rundown's), as {@link NetTraceReader} reads them back. */
  static List<TraceEvent> events(
      List<SyntheticWalk.Node> nodes, List<SyntheticWalk.Root> roots, long gc) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (NetTraceWriter w = NetTraceWriter.create(out, SyntheticWalk.header())) {
      SyntheticWalk.walk(w, nodes, roots, gc);
      SyntheticWalk.rundown(w);
    }
    List<TraceEvent> events = new ArrayList<>();
    try (NetTraceReader r = NetTraceReader.open(new ByteArrayInputStream(out.toByteArray()))) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        events.add(e);
      }
    }
    return events;
  }
}
