package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.Criterion;
import org.netweather.api.v1.HostSnapshot;
import org.netweather.api.v1.Measurement;
import org.netweather.client.NetWeatherClient;

/**
 * The client as a scheduler author depends on it: this checkout's parent, api, model and client
 * installed by the command docs/client-library.md gives, into a repository under target/ (never
 * ~/.m2), then {@code examples/client-app} built from a copy outside the source tree by its Maven
 * coordinates alone, and run against {@code nws up}.
 */
class ClientLibraryIT {
  /** What only the daemons, the dashboard or the command line need; a client must not drag it. */
  private static final Pattern HEAVY =
      Pattern.compile("(?i).*(javalin|rocksdb|jetty|kotlin|picocli).*");

  private static final String SERIES = "cpu.availability:alpha";
  private static final int POINTS = 30;

  @Test
  @Timeout(540)
  void exampleBuiltByCoordinatesPrintsForecastAndSnapshotOfARealSite() throws Exception {
    Path home = Path.of(System.getProperty("netweather.home", "..")).toAbsolutePath().normalize();
    // The page shows the example's whole program: it must be the one this test builds and runs.
    String program =
        Files.readString(
            home.resolve(
                "examples/client-app/src/main/java/org/netweather/examples/clientapp/ClientApp.java"));
    assertTrue(
        Files.readString(home.resolve("docs/client-library.md")).contains("```java\n" + program),
        "docs/client-library.md must show examples/client-app's ClientApp.java as it is");

    Path work = home.resolve("launcher/target/client-library-it");
    deleteTree(work);
    Files.createDirectories(work);
    Path repo = work.resolve("repository");
    String version = System.getProperty("netweather.version", "0.1.0-SNAPSHOT");

    int ns = DaemonProcesses.freePort();
    try (DaemonProcesses procs = new DaemonProcesses(work.resolve("logs"))) {
      // The daemons start while Maven builds.
      procs.start(
          "up",
          "up",
          "--data-dir",
          work.resolve("data").toString(),
          "--nameserver-port",
          "" + ns,
          "--memory-port",
          "" + DaemonProcesses.freePort(),
          "--forecaster-port",
          "" + DaemonProcesses.freePort(),
          "--proxy-port",
          "" + DaemonProcesses.freePort(),
          "--sensor-port",
          "" + DaemonProcesses.freePort(),
          "--probe-port",
          "" + DaemonProcesses.freePort(),
          "--metrics-port",
          "" + DaemonProcesses.freePort());

      maven(
          home,
          repo,
          work.resolve("logs/install.log"),
          "-f",
          home.resolve("pom.xml").toString(),
          "-pl",
          "client,model",
          "-am",
          "install",
          "-Dmaven.test.skip=true",
          "-Djacoco.skip=true",
          "-Dspotless.check.skip=true");
      for (String artifact : List.of("netweather-parent", "api", "model", "client")) {
        Path installed = repo.resolve("org/netweather/" + artifact + "/" + version);
        assertTrue(Files.isDirectory(installed), artifact + " not installed in " + repo);
      }

      // A copy outside the source tree: the project must stand alone, no parent or relative path.
      Path app = work.resolve("client-app");
      copyTree(home.resolve("examples/client-app"), app);
      maven(
          home,
          repo,
          work.resolve("logs/client-app.log"),
          "-f",
          app.resolve("pom.xml").toString(),
          "package");

      List<String> lib;
      try (Stream<Path> jars = Files.list(app.resolve("target/lib"))) {
        lib = jars.map(p -> p.getFileName().toString()).sorted().toList();
      }
      for (String jar : lib) {
        assertFalse(HEAVY.matcher(jar).matches(), jar + " on the client's class path: " + lib);
        assertFalse(jar.startsWith("testing-") || jar.startsWith("junit"), jar + " in " + lib);
      }
      for (String needed :
          List.of(
              "client-" + version + ".jar",
              "api-" + version + ".jar",
              "model-" + version + ".jar",
              "grpc-netty-shaded-",
              "protobuf-java-")) {
        assertTrue(lib.stream().anyMatch(j -> j.startsWith(needed)), needed + " missing: " + lib);
      }

      String host = feedAndAwait(ns, procs);

      Path jar = app.resolve("target/client-app-1.0.jar");
      Run run = java(work, "run", "-jar", jar.toString(), "localhost:" + ns, SERIES, "local");
      assertEquals(0, run.exit, run.output);
      // The points fed were all 0.25: every predictor of the battery says 0.25.
      assertTrue(
          Pattern.compile(
                  "(?m)^forecast "
                      + Pattern.quote(SERIES)
                      + ": 0\\.2500 fraction, \\d+ % interval \\[")
              .matcher(run.output)
              .find(),
          run.output);
      assertTrue(run.output.contains("after " + POINTS + " measurements"), run.output);
      assertTrue(run.output.contains("cluster local at "), run.output);
      assertTrue(
          Pattern.compile("(?m)^  host " + Pattern.quote(host) + ": cpu\\.availability [01]\\.\\d+")
              .matcher(run.output)
              .find(),
          "host " + host + " with its CPU forecast:\n" + run.output);

      // Bad input is named before anything is dialled.
      Run bad = java(work, "bad", "-jar", jar.toString(), "localhost:" + ns, "cpu availability");
      assertEquals(2, bad.exit, bad.output);
      assertTrue(bad.output.contains("client-app: series name 'cpu availability'"), bad.output);
    }
  }

  /**
   * Puts {@link #POINTS} equal values of {@link #SERIES}, waits until they are forecast and until
   * the proxy of nws up has its sensor's CPU forecast; returns that sensor's host name.
   */
  private static String feedAndAwait(int ns, DaemonProcesses procs) throws Exception {
    ManagedChannel channel = DaemonProcesses.channel(ns);
    try (NetWeatherClient client =
        NetWeatherClient.forChannel(channel)
            // Generous: the first calls of a fresh JVM on a loaded 2-core machine are slow.
            .deadline(Duration.ofSeconds(30))
            .channels(
                a -> DaemonProcesses.channel(Integer.parseInt(a.substring(a.lastIndexOf(':') + 1))))
            .build()) {
      await("nws up", () -> log(procs).contains("NetWeather is up"), procs);
      long start = System.currentTimeMillis() - POINTS * 1000L;
      List<Measurement> points = new ArrayList<>();
      for (int i = 0; i < POINTS; i++) {
        points.add(
            Measurement.newBuilder().setTimestampMs(start + i * 1000L).setValue(0.25).build());
      }
      client.put(SERIES, points);
      await(
          "the forecast of " + SERIES,
          () -> {
            Long count = orNull(() -> client.forecast(SERIES, Criterion.CRITERION_MSE).getCount());
            return count != null && count == POINTS;
          },
          procs);
      String[] host = new String[1];
      await(
          "a CPU forecast in the snapshot of cluster local",
          () -> {
            ClusterSnapshot s = orNull(() -> client.snapshot("local"));
            for (HostSnapshot h : s == null ? List.<HostSnapshot>of() : s.getHostsList()) {
              if (h.hasCpuAvailability()) {
                host[0] = h.getHost();
                return true;
              }
            }
            return false;
          },
          procs);
      return host[0];
    } finally {
      channel.shutdownNow();
    }
  }

  /**
   * Runs this checkout's Maven wrapper on a local repository of its own, reading what it lacks
   * (gRPC, protobuf, plugins) from the build's own local repository, and offline when the build is.
   */
  private static void maven(Path home, Path repo, Path log, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(home.resolve("mvnw").toString());
    cmd.add("-B");
    if (System.getProperty("netweather.maven.offline", "").equals("offline=true")) {
      cmd.add("-o");
    }
    cmd.add("-Dmaven.repo.local=" + repo);
    String outer = System.getProperty("netweather.maven.repository", "");
    if (!outer.isEmpty()) {
      cmd.add("-Dmaven.repo.local.tail=" + outer);
    }
    cmd.addAll(List.of(args));
    Process p =
        new ProcessBuilder(cmd)
            .directory(home.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!p.waitFor(300, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", cmd) + " still running after 300 s");
    }
    assertEquals(0, p.exitValue(), String.join(" ", cmd) + "\n" + Files.readString(log));
  }

  private record Run(int exit, String output) {}

  private static Run java(Path work, String name, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of(args));
    Path out = work.resolve("logs/" + name + ".out");
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", cmd) + " still running after 120 s");
    }
    return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
  }

  private static <T> T orNull(Supplier<T> call) {
    try {
      return call.get();
    } catch (StatusRuntimeException e) {
      return null;
    }
  }

  private static String log(DaemonProcesses procs) {
    try {
      return procs.log("up");
    } catch (IOException e) {
      return "";
    }
  }

  private static void await(String what, Supplier<Boolean> condition, DaemonProcesses procs)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!Boolean.TRUE.equals(condition.get())) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what + "\nnws up log:\n" + log(procs));
      }
      Thread.sleep(200);
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : paths.toList()) {
        Path rel = from.relativize(p);
        if (rel.startsWith("target")) {
          continue;
        }
        Path dest = to.resolve(rel.toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(dest);
        } else {
          Files.copy(p, dest);
        }
      }
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
