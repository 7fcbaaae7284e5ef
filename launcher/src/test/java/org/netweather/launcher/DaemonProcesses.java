package org.netweather.launcher;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Starts NetWeather daemons as separate processes through {@code bin/nws}, for *IT tests. */
final class DaemonProcesses implements AutoCloseable {
  private final Path home;
  private final Path logs;
  private final List<Process> started = new ArrayList<>();

  DaemonProcesses(Path logs) throws IOException {
    this.home = Path.of(System.getProperty("netweather.home", "..")).toAbsolutePath().normalize();
    this.logs = logs;
    Files.createDirectories(logs);
    if (!Files.isExecutable(home.resolve("bin/nws"))) {
      throw new IllegalStateException("bin/nws not found under " + home);
    }
  }

  /** Runs {@code bin/nws ARGS...}, with stdout and stderr in {@code logs/NAME.log}. */
  Process start(String name, String... args) throws IOException {
    return start(name, Map.of(), args);
  }

  /** As {@link #start(String, String...)}, with {@code env} added to the environment. */
  Process start(String name, Map<String, String> env, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(home.resolve("bin/nws").toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve(name + ".log").toFile()));
    pb.environment().put("NWS_JAVA_OPTS", "-Xmx256m");
    pb.environment().putAll(env);
    Process p = pb.start();
    started.add(p);
    return p;
  }

  /** SIGKILL, and wait until the process is gone. */
  static void kill9(Process p) throws InterruptedException {
    p.destroyForcibly();
    if (!p.waitFor(20, TimeUnit.SECONDS)) {
      throw new IllegalStateException("process " + p.pid() + " survived SIGKILL");
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    }
  }

  static ManagedChannel channel(int port) {
    return NettyChannelBuilder.forAddress("localhost", port).usePlaintext().build();
  }

  String log(String name) throws IOException {
    Path f = logs.resolve(name + ".log");
    return Files.exists(f) ? Files.readString(f) : "";
  }

  @Override
  public void close() throws InterruptedException {
    for (Process p : started) {
      p.destroy();
    }
    for (Process p : started) {
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        kill9(p);
      }
    }
  }
}
