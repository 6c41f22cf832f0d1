package dev.clrscope.cli.commands;

import dev.clrscope.cli.Main;
import dev.clrscope.cli.dacprocess.DacHost;
import dev.clrscope.cli.output.RunOutput;
import dev.clrscope.cli.render.Result;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.URISyntaxException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The build's training run for the AppCDS archive: it runs the start-up paths of the common
 * commands for real (parsing, help, discovery, IPC, rendering, usage and target errors, slf4j and
 * logback with logs off, and with {@code -v} and {@code --log-file}), with their output thrown
 * away, so that their classes and lambdas land in the archive. Hidden.
 *
 * <p>Given a core ({@code --core}, which the build makes of a test app when it has .NET:
 * cli/src/build/appcds.sh), the DAC process's commands also run on it for real: a lambda or method
 * handle is archived only once its call site has run, and without a core the DAC process's ran none
 * (about 120 classes spun at every start of one; a third of a small core's report).
 */
@Command(name = "__train", hidden = true)
public final class TrainCommand extends ClrscopeSubcommand {
  private static final List<List<String>> RUNS =
      List.of(
          List.of("ps"),
          List.of("ps", "--format", "json"),
          List.of("ps", "--format", "csv"),
          List.of("info", "-p", "1"),
          List.of("info", "-p", "999999999", "--format", "json"),
          List.of("env", "-n", "no-such-process-name"),
          List.of("info"),
          List.of("no-such-command"),
          List.of("--help"),
          List.of("ps", "--help"),
          List.of("info", "--help"),
          List.of("dump", "--help"),
          List.of("gcstats", "--help"),
          List.of("fullgc", "--help"),
          List.of("trace", "collect", "--help"),
          List.of("trace", "stats", "--help"),
          List.of("counters", "monitor", "--help"),
          List.of("counters", "collect", "--help"),
          // analyze's command model and its core reader, up to the missing file's message: the
          // front's side here (a DAC process is started for it) and the DAC process's below.
          List.of("analyze", "clrscope-train-missing.core", "-c", "dumpheap -stat"),
          List.of("analyze", "--help"));

  @Option(names = "--core", description = "A core of a .NET process to run the DAC commands on.")
  Path core;

  @Option(names = "--object", description = "An object in that core, for gcroot.")
  String object;

  @Override
  protected Result run() {
    try {
      train();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return Result.done();
  }

  private void train() throws IOException {
    PrintStream out = System.out;
    PrintStream err = System.err;
    PrintStream sink =
        new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    // In the working directory (target/ in the build), not a temporary one: making a randomly named
    // directory would load, and archive, the JDK's secure random number generators.
    Path log = Path.of("clrscope-train.log");
    List<List<String>> runs = new ArrayList<>(RUNS);
    // Logs on: stderr, a file, both, and a log file that cannot be opened. The last run is a plain
    // one, so logs are off again when training ends.
    runs.add(List.of("ps", "-v"));
    runs.add(List.of("-v", "info", "-p", "999999999", "--log-file", log.toString()));
    runs.add(List.of("ps", "--log-file", Path.of("clrscope-train-missing", "x.log").toString()));
    runs.add(List.of("ps"));
    // A build machine seldom runs a .NET process, so `ps` above may have connected to none: a
    // peer that accepts and hangs up has the client connect, send and read as `ps` does for every
    // runtime it lists (the JDK's Unix-domain sockets, which seed a secure random generator on
    // first use, and the IPC client), so those classes are archived too.
    Path socket = Path.of("clrscope-train.sock");
    Files.deleteIfExists(socket);
    try (ServerSocketChannel peer = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      peer.bind(UnixDomainSocketAddress.of(socket));
      Thread hangUp = new Thread(() -> acceptAndHangUp(peer), "clrscope-train-peer");
      hangUp.setDaemon(true);
      hangUp.start();
      runs.add(List.of("info", "--diagnostic-port", socket + ",connect"));
      // A heap snapshot from a stand-in runtime that sends a small walk: the session, the reader,
      // the builder and the .gcdump writer, read back and reported, land in the archive too.
      Path runtime = Path.of("clrscope-train-runtime.sock");
      Path gcdump = Path.of("clrscope-train.gcdump");
      String port = runtime + ",connect";
      runs.add(List.of("dump-heap", "collect", "--diagnostic-port", port, "-o", gcdump.toString()));
      runs.add(List.of("dump-heap", "report", gcdump.toString(), "--top", "3"));
      runs.add(List.of("dump-heap", "--diagnostic-port", port, "--top", "3"));
      try (TrainingRuntime stand = TrainingRuntime.listen(runtime)) {
        System.setOut(sink);
        System.setErr(sink);
        for (List<String> run : runs) {
          // As Main.main runs a command, but with stdout and stderr going nowhere.
          Main.run(new RunOutput(sink, sink, true), run.toArray(String[]::new));
        }
        // The analyze run above went to a DAC process of its own (whose classes no archive
        // holds): the same run as a DAC process makes it, here, for the archive.
        DacHost.trainingRun(
            "analyze", "clrscope-train-missing.core", "-c", "dumpheap -stat", "--format", "json");
        if (core != null) {
          trainOnCore(core.toString(), object == null ? "0x0" : object);
        }
        loadReadersOfCores();
      } finally {
        System.setOut(out);
        System.setErr(err);
        Files.deleteIfExists(log);
        Files.deleteIfExists(gcdump);
      }
    } finally {
      Files.deleteIfExists(socket);
    }
  }

  /** The DAC process's commands on a real core, as the DAC process runs them. */
  private static void trainOnCore(String core, String object) {
    String none = "--symbol-server=none";
    DacHost.trainingRun("dump-heap", "report", core, none);
    DacHost.trainingRun("dump-heap", "report", core, none, "--format", "json");
    DacHost.trainingRun(
        "analyze",
        core,
        none,
        "-c",
        "dumpheap -stat",
        "-c",
        "gcroot " + object,
        "-c",
        "syncblk",
        "-c",
        "clrstack -all",
        "-c",
        "threadpool");
    DacHost.trainingRun("triage", core, none);
  }

  /**
   * Loads, without initialising (but the outputs), the classes that only reading a core or a paused
   * process needs (the DAC module, JNA's core, the heap graph, triage), which no run above can
   * reach without a core: a third of the classes {@code analyze} and {@code dump-heap CORE} load
   * would otherwise come from the jar on every start (about 350 classes; docs/benchmarks.md).
   */
  private static void loadReadersOfCores() {
    ClassLoader loader = TrainCommand.class.getClassLoader();
    try (JarFile jar =
        new JarFile(
            Path.of(TrainCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toFile())) {
      for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
        String name = e.nextElement().getName();
        int slash = name.lastIndexOf('/');
        if (!name.endsWith(".class") || slash < 0) {
          continue;
        }
        String pkg = name.substring(0, slash + 1);
        if (pkg.startsWith("dev/clrscope/dac/")
            || pkg.equals("dev/clrscope/cli/commands/analyze/")
            || pkg.equals("dev/clrscope/cli/commands/heap/")
            || pkg.equals("dev/clrscope/cli/commands/triage/")
            || pkg.equals("dev/clrscope/cli/dacprocess/")
            || pkg.equals("dev/clrscope/triage/")
            || pkg.equals("dev/clrscope/heapwalk/")
            || pkg.equals("dev/clrscope/symbols/")
            || pkg.equals("com/sun/jna/")
            || pkg.equals("com/sun/jna/internal/")) {
          String className = name.substring(0, name.length() - ".class".length());
          // An output's record schemas are static fields of lambdas, linked when the class is
          // initialised: initialised here, their classes are archived too, not spun at the end of
          // every run (35 of them for triage's report).
          boolean initialise =
              pkg.startsWith("dev/clrscope/cli/commands/") && className.endsWith("Output");
          try {
            Class.forName(className.replace('/', '.'), initialise, loader);
          } catch (ClassNotFoundException | LinkageError notArchived) {
            // A class that does not load here is only not archived: it loads from the jar.
          }
        }
      }
    } catch (IOException | URISyntaxException | RuntimeException notArchived) {
      // Not run from a jar (tests): nothing to archive.
    }
  }

  private static void acceptAndHangUp(ServerSocketChannel peer) {
    try {
      while (true) {
        peer.accept().close();
      }
    } catch (IOException e) {
      // Closed when training ends.
    }
  }
}
