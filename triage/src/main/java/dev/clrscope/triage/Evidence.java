package dev.clrscope.triage;

import dev.clrscope.symbols.Frame;
import java.util.ArrayList;
import java.util.List;

/**
 * What a finding rests on, as a person checks it: the threads (with their frames and source lines),
 * the objects (address, type, size, what they retain), the exceptions (with their inner ones) and
 * the facts counted.
 *
 * @param threads the threads, in the finding's order
 * @param objects the objects
 * @param exceptions exceptions, outermost first, each followed by its inner ones
 * @param facts named numbers and words
 */
public record Evidence(
    List<ThreadEntry> threads,
    List<ObjectEntry> objects,
    List<ExceptionEntry> exceptions,
    List<Fact> facts) {
  /** Copies the lists. */
  public Evidence {
    threads = List.copyOf(threads);
    objects = List.copyOf(objects);
    exceptions = List.copyOf(exceptions);
    facts = List.copyOf(facts);
  }

  /**
   * A thread.
   *
   * @param osId its OS id
   * @param managedId its managed id (0 when unknown)
   * @param name its name ({@code Thread.Name}), or null
   * @param role what it does in the finding: {@code holds Ledger 0x..., waits for Lock 0x...}
   * @param frames its managed frames, innermost first, with their lines where known
   */
  public record ThreadEntry(int osId, int managedId, String name, String role, List<Frame> frames) {
    /** Copies the frames. */
    public ThreadEntry {
      frames = List.copyOf(frames);
    }

    /** {@code 4312 (transfer-in)} or {@code 4312}. */
    public String label() {
      return name == null ? Integer.toString(osId) : osId + " (" + name + ")";
    }
  }

  /**
   * An object.
   *
   * @param address its address
   * @param type its type
   * @param size its own size
   * @param retained what it keeps alive by itself, or null when not computed
   * @param role what it is in the finding: {@code waited for}, {@code accumulation point}...
   */
  public record ObjectEntry(long address, String type, long size, Long retained, String role) {}

  /**
   * An exception.
   *
   * @param depth 0 for the exception itself, 1 for its inner exception, and so on
   * @param address the exception object
   * @param type its type
   * @param message its message, or null
   * @param hresult its HResult, {@code 0x80131500}
   * @param frames the frames it was thrown through, innermost first
   */
  public record ExceptionEntry(
      int depth, long address, String type, String message, String hresult, List<Frame> frames) {
    /** Copies the frames. */
    public ExceptionEntry {
      frames = List.copyOf(frames);
    }
  }

  /**
   * A named value: a number (JSON keeps it a number) or a word.
   *
   * @param name what it is: {@code queued work items}
   * @param value a {@link Long}, {@link Double} or {@link String}
   */
  public record Fact(String name, Object value) {}

  /** Builds evidence part by part. */
  public static Builder builder() {
    return new Builder();
  }

  /** Evidence, part by part. */
  public static final class Builder {
    private final List<ThreadEntry> threads = new ArrayList<>();
    private final List<ObjectEntry> objects = new ArrayList<>();
    private final List<ExceptionEntry> exceptions = new ArrayList<>();
    private final List<Fact> facts = new ArrayList<>();

    private Builder() {}

    public Builder thread(ThreadEntry t) {
      threads.add(t);
      return this;
    }

    public Builder object(ObjectEntry o) {
      objects.add(o);
      return this;
    }

    public Builder exception(ExceptionEntry e) {
      exceptions.add(e);
      return this;
    }

    public Builder fact(String name, Object value) {
      facts.add(new Fact(name, value));
      return this;
    }

    public Evidence build() {
      return new Evidence(threads, objects, exceptions, facts);
    }
  }
}
