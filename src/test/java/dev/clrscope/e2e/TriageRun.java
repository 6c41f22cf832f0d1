package dev.clrscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One test app for a whole test class, put in a state: started under a shell ({@link
 * TriageCli#start}), sent the command that makes the state (what it answers is {@link #facts()}),
 * and a full core of it in that state ({@link #core()}); closed, and the core deleted, after the
 * class. Registered as {@code @RegisterExtension static final TriageRun run =
 * TriageRun.of("deadlock")}: it is ready before the class's own {@code @BeforeAll} methods run.
 */
final class TriageRun implements BeforeAllCallback, AfterAllCallback {
  private final String appName;
  private final Map<String, String> env;
  private final String command;
  private final boolean writeCore;
  private Path dir;
  private TargetProcess app;
  private JsonNode facts;
  private Path core;

  private TriageRun(String appName, Map<String, String> env, String command, boolean writeCore) {
    this.appName = appName;
    this.env = env;
    this.command = command;
    this.writeCore = writeCore;
  }

  /** TriageApp sent {@code command}, and a core of it. */
  static TriageRun of(String command) {
    return new TriageRun(TriageCli.APP, Map.of(), command, true);
  }

  /** The same with {@code env} added to the app's environment. */
  TriageRun withEnv(Map<String, String> more) {
    return new TriageRun(appName, more, command, writeCore);
  }

  /** The same on another test app. */
  TriageRun onApp(String name) {
    return new TriageRun(name, env, command, writeCore);
  }

  /** The same without a core: for tests of the live process only. */
  TriageRun withoutCore() {
    return new TriageRun(appName, env, command, false);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    app = TriageCli.start(appName, env);
    facts = app.send(command);
    if (writeCore) {
      dir = Files.createTempDirectory("clrscope-" + appName + "-");
      core = TriageCli.dump(app, dir.resolve(command.replace(' ', '-') + ".core"));
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    try {
      if (app != null) {
        app.close();
      }
    } finally {
      if (dir != null) {
        try (Stream<Path> all = Files.walk(dir)) {
          for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
            Files.deleteIfExists(p);
          }
        }
      }
    }
  }

  TargetProcess app() {
    return app;
  }

  /** What the app answered to the command. */
  JsonNode facts() {
    return facts;
  }

  /** The core written in the state; none {@link #withoutCore()}. */
  Path core() {
    if (core == null) {
      throw new IllegalStateException("this run wrote no core");
    }
    return core;
  }

  /**
   * The JSON report of {@code source}: {@code live} (the app, read at once) or {@code core} (its
   * core), with {@code more} arguments.
   */
  JsonNode report(String source, String... more) {
    if (source.equals("live")) {
      return TriageCli.live(app, more);
    }
    List<String> args = new ArrayList<>(List.of(core().toString()));
    args.addAll(List.of(more));
    return TriageCli.json(args.toArray(String[]::new));
  }

  long pid() {
    return app.ready().pid();
  }
}
