package dev.clrscope.monitor.trace;

import dev.clrscope.ipc.session.EventLevel;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.monitor.RuntimeKeyword;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code trace collect} asks the runtime for, merged from its options the way dotnet-trace
 * merges them: profiles first (in order; a provider two profiles name keeps the first one's
 * settings), then {@code --clrevents} for the runtime provider, then {@code --providers}, which
 * wins for any provider it names (matched case-insensitively).
 *
 * @param providers the providers, in the order first named
 * @param rundownKeyword the rundown keywords (0 for none)
 * @param notes what was overridden or defaulted, for stderr
 */
public record SessionPlan(
    List<EventPipeProvider> providers, long rundownKeyword, List<String> notes) {

  /** The trace tools' buffer, in MB (dotnet-trace's default). */
  public static final int DEFAULT_BUFFER_MB = 256;

  /** Copies the lists. */
  public SessionPlan {
    providers = List.copyOf(providers);
    notes = List.copyOf(notes);
  }

  /**
   * Builds the plan.
   *
   * @param profiles profile names, possibly comma-separated within one entry; empty for none
   * @param clrEvents {@code gc+jit+…} or null
   * @param clrEventLevel the level for {@code --clrevents}, or null for Verbose
   * @param providersText {@code --providers} text or null
   * @param rundown the rundown keywords {@code --rundown} asked for ({@link #parseRundown}), 0 for
   *     none, null when it was not given (the profiles' choice, else the default)
   * @throws IllegalArgumentException for a usage error, with a message for the user
   */
  public static SessionPlan build(
      List<String> profiles,
      String clrEvents,
      String clrEventLevel,
      String providersText,
      Long rundown) {
    List<String> notes = new ArrayList<>();
    Map<String, EventPipeProvider> byName = new LinkedHashMap<>();
    List<String> profileNames = new ArrayList<>();
    for (String entry : profiles) {
      for (String n : entry.split(",", -1)) {
        if (!n.isBlank()) {
          profileNames.add(n.strip());
        }
      }
    }
    if (profileNames.isEmpty() && clrEvents == null && providersText == null) {
      profileNames.addAll(TraceProfile.DEFAULT_PROFILES);
      notes.add(
          "no --profile, --providers or --clrevents: using the profiles "
              + String.join(" and ", TraceProfile.DEFAULT_PROFILES));
    }
    Long profileRundown = null;
    for (String n : profileNames) {
      TraceProfile p =
          TraceProfile.byName(n)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "unknown profile '"
                              + n
                              + "': `clrscope trace list-profiles` lists them"));
      if (p.name().equals("cpu-sampling")) {
        notes.add(
            "the cpu-sampling profile is dotnet-trace's former default, which dotnet-trace 10"
                + " refuses for collect; clrscope keeps it as an alias of thread samples plus the"
                + " runtime's default keywords (dotnet-sampled-thread-time and dotnet-common are"
                + " today's equivalents)");
      }
      for (EventPipeProvider provider : p.providers()) {
        // dotnet-trace keeps the first profile's settings for a provider two profiles name.
        byName.putIfAbsent(key(provider.name()), provider);
      }
      if (p.rundownKeyword() != null) {
        profileRundown = p.rundownKeyword();
      }
    }
    List<EventPipeProvider> explicit =
        providersText == null ? List.of() : ProviderSyntax.parseList(providersText);
    boolean explicitRuntime =
        explicit.stream().anyMatch(p -> key(p.name()).equals(key(RuntimeEvents.RUNTIME_PROVIDER)));
    if (clrEvents != null) {
      long mask = RuntimeKeyword.parse(clrEvents);
      int level =
          clrEventLevel == null
              ? EventLevel.VERBOSE.value()
              : ProviderSyntax.parseLevel(clrEventLevel);
      if (explicitRuntime) {
        notes.add(
            "--providers names "
                + RuntimeEvents.RUNTIME_PROVIDER
                + ", so --clrevents is ignored (as in dotnet-trace)");
      } else {
        byName.put(
            key(RuntimeEvents.RUNTIME_PROVIDER),
            new EventPipeProvider(RuntimeEvents.RUNTIME_PROVIDER, mask, level));
      }
    } else if (clrEventLevel != null) {
      throw new IllegalArgumentException("--clreventlevel needs --clrevents");
    }
    for (EventPipeProvider p : explicit) {
      EventPipeProvider old = byName.put(key(p.name()), p);
      if (old != null && !profileNames.isEmpty()) {
        notes.add("--providers overrides the profile's settings for " + p.name());
      }
    }
    long rundownKeyword;
    if (rundown == null) {
      rundownKeyword =
          profileRundown != null ? profileRundown : EventPipeSessionConfig.DEFAULT_RUNDOWN_KEYWORD;
    } else {
      rundownKeyword = rundown;
    }
    return new SessionPlan(new ArrayList<>(byName.values()), rundownKeyword, notes);
  }

  /**
   * {@code --rundown}'s value as dotnet-trace 10 takes it: {@code true} (the default rundown),
   * {@code false} (none), or the rundown provider's keywords in hexadecimal, with or without {@code
   * 0x}.
   *
   * @throws IllegalArgumentException for anything else
   */
  public static long parseRundown(String text) {
    String t = text.strip();
    if (t.equalsIgnoreCase("true")) {
      return EventPipeSessionConfig.DEFAULT_RUNDOWN_KEYWORD;
    }
    if (t.equalsIgnoreCase("false")) {
      return 0;
    }
    String hex = t.startsWith("0x") || t.startsWith("0X") ? t.substring(2) : t;
    try {
      return Long.parseUnsignedLong(hex, 16);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--rundown takes true, false or the rundown keywords in hexadecimal (such as 0x80020139),"
              + " got '"
              + text
              + "'");
    }
  }

  /** The session configuration for this plan. */
  public EventPipeSessionConfig toConfig(int bufferSizeMb) {
    return toConfig(bufferSizeMb, false);
  }

  /**
   * The session configuration; {@code lossless}: the runtime blocks writers rather than drop events
   * when the buffer is full (dotnet-trace's {@code --buffering-mode Block}, .NET 11+).
   */
  public EventPipeSessionConfig toConfig(int bufferSizeMb, boolean lossless) {
    return new EventPipeSessionConfig(bufferSizeMb, providers, rundownKeyword, true, lossless);
  }

  /** Providers in dotnet-trace syntax, one per entry, for messages and list-profiles. */
  public static String describe(EventPipeProvider p) {
    StringBuilder sb =
        new StringBuilder(p.name())
            .append(":0x")
            .append(Long.toHexString(p.keywords()).toUpperCase(Locale.ROOT))
            .append(':')
            .append(p.level());
    String args = p.filterData();
    if (args != null) {
      sb.append(':').append(args.length() > 60 ? args.substring(0, 57) + "..." : args);
    }
    return sb.toString();
  }

  private static String key(String providerName) {
    return providerName.toLowerCase(Locale.ROOT);
  }
}
