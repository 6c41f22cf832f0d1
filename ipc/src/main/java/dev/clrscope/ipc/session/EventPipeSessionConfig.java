package dev.clrscope.ipc.session;

import java.util.List;

/**
 * What an EventPipe session collects.
 *
 * @param bufferSizeMb the runtime's circular buffer for this session, in MB
 * @param providers the providers to enable
 * @param rundownKeyword the rundown provider's keywords when the session stops; 0 for no rundown,
 *     {@link #DEFAULT_RUNDOWN_KEYWORD} for the classic rundown
 * @param requestStackwalk whether events carry stacks
 * @param lossless block the target's threads rather than drop events when the buffer is full
 *     (CollectTracing6, .NET 11 and later)
 */
public record EventPipeSessionConfig(
    int bufferSizeMb,
    List<EventPipeProvider> providers,
    long rundownKeyword,
    boolean requestStackwalk,
    boolean lossless) {

  /** The keywords the runtime used for rundown before they could be chosen. */
  public static final long DEFAULT_RUNDOWN_KEYWORD = 0x80020139L;

  /** Copies the provider list and checks the values. */
  public EventPipeSessionConfig {
    providers = List.copyOf(providers);
    if (providers.isEmpty()) {
      throw new IllegalArgumentException("a session needs at least one provider");
    }
    if (bufferSizeMb <= 0) {
      throw new IllegalArgumentException("the buffer size must be positive, got " + bufferSizeMb);
    }
  }

  /** A session with the classic rundown, stacks, and the runtime's drop-on-full buffering. */
  public static EventPipeSessionConfig of(int bufferSizeMb, List<EventPipeProvider> providers) {
    return new EventPipeSessionConfig(
        bufferSizeMb, providers, DEFAULT_RUNDOWN_KEYWORD, true, false);
  }

  /** Whether any provider restricts its event ids. */
  public boolean hasEventFilter() {
    return providers.stream().anyMatch(p -> !p.eventIds().isEmpty());
  }
}
