package org.netweather.benchmarks.site;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One daemon run as {@code bin/nws ROLE --config FILE}, its own JVM (bin/nws execs java, so the
 * process is the JVM); its output is appended to {@code NAME.log} beside its config {@code
 * NAME.yaml}. It can be killed with SIGKILL and started again on the same port and data directory.
 */
final class DaemonProcess {
  final String label;
  final int port;
  final Path dataDir;
  private final Path home;
  private final String role;
  private final List<String> args;
  private final Map<String, String> environment;
  private final Path log;
  private Process process;

  DaemonProcess(Path home, String label, String role, Path config, int port, Path dataDir) {
    this(home, label, role, config, port, dataDir, Map.of());
  }

  /** As above, with {@code environment} added to its own. */
  DaemonProcess(
      Path home,
      String label,
      String role,
      Path config,
      int port,
      Path dataDir,
      Map<String, String> environment) {
    this.home = home;
    this.label = label;
    this.role = role;
    this.args = List.of("--config", config.toString());
    this.environment = Map.copyOf(environment);
    this.port = port;
    this.dataDir = dataDir;
    String file = config.getFileName().toString();
    this.log = config.resolveSibling(file.replaceFirst("\\.yaml$", "") + ".log");
  }

  /**
   * A daemon run as {@code bin/nws ROLE ARGS...} with {@code environment} added to its own (e.g.
   * NWS_JAVA_OPTS for a small heap), its output appended to {@code log}.
   */
  DaemonProcess(
      Path home,
      String label,
      String role,
      List<String> args,
      Map<String, String> environment,
      int port,
      Path dataDir,
      Path log) {
    this.home = home;
    this.label = label;
    this.role = role;
    this.args = List.copyOf(args);
    this.environment = Map.copyOf(environment);
    this.port = port;
    this.dataDir = dataDir;
    this.log = log;
  }

  String address() {
    return "localhost:" + port;
  }

  Path log() {
    return log;
  }

  /** The same daemon with {@code more} added to the environment it is started with. */
  DaemonProcess withEnvironment(Map<String, String> more) {
    Map<String, String> env = new java.util.HashMap<>(environment);
    env.putAll(more);
    return new DaemonProcess(home, label, role, args, env, port, dataDir, log);
  }

  void start() throws IOException {
    List<String> command = new ArrayList<>(List.of(home.resolve("bin/nws").toString(), role));
    command.addAll(args);
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    // The daemons run what is built; they must not each start a build of their own.
    pb.environment().remove("NWS_REBUILD");
    pb.environment().putAll(environment);
    Process started = pb.start();
    process = started;
    // An interrupted benchmark (Ctrl-C, kill) must not leave daemons behind holding the machine.
    Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly, "stop-" + role));
  }

  long pid() {
    return process.pid();
  }

  boolean alive() {
    return process != null && process.isAlive();
  }

  /** The exit status once the process has ended (137: SIGKILL, 143: SIGTERM); -1 while alive. */
  int exitStatus() {
    return process == null || process.isAlive() ? -1 : process.exitValue();
  }

  /** SIGKILL, and waits for the process to be gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /** SIGTERM (a clean shutdown), then SIGKILL after 20 s. */
  void stop() throws InterruptedException {
    if (process == null) {
      return;
    }
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      kill();
    }
  }

  /** CPU time, resident memory and open descriptors now, from /proc. */
  ProcSample sample() {
    return ProcSample.of(pid());
  }

  /** Bytes of disk the data directory takes, as du counts them; -1 without a data directory. */
  long diskBytes() throws IOException, InterruptedException {
    if (dataDir == null || !Files.isDirectory(dataDir)) {
      return -1;
    }
    Process du =
        new ProcessBuilder("du", "-s", "-B1", dataDir.toString()).redirectErrorStream(true).start();
    String out = new String(du.getInputStream().readAllBytes()).trim();
    du.waitFor();
    return Long.parseLong(out.split("\\s+")[0]);
  }
}
