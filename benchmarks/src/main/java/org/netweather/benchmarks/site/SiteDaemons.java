package org.netweather.benchmarks.site;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.netweather.client.NetWeatherClient;

/**
 * The daemons under test, each its own {@code bin/nws} process on a free loopback port with its own
 * config file and data directory under the run's directory: nameserver, memory-host, forecaster and
 * one proxy (serving the first cluster). The memory-host's per-caller limit on new series is
 * lifted, since every simulated sensor calls from this one process.
 */
final class SiteDaemons {
  final DaemonProcess nameserver;
  final DaemonProcess memory;
  final DaemonProcess forecaster;
  final DaemonProcess proxy;
  private final ChannelCredentials credentials;

  SiteDaemons(Path home, Path dir, SiteOptions options) throws IOException {
    this(
        home,
        dir,
        options.consolidationSeconds(),
        SitePlan.cluster(0, options.clusterHosts()),
        role -> "",
        InsecureChannelCredentials.create());
  }

  /**
   * As above, with {@code extra} configuration lines for each role (e.g. TLS files) and the
   * credentials to check each daemon's health with.
   */
  SiteDaemons(
      Path home,
      Path dir,
      int consolidationSeconds,
      String cluster,
      Function<String, String> extra,
      ChannelCredentials credentials)
      throws IOException {
    this.credentials = credentials;
    Files.createDirectories(dir);
    int ns = freePort();
    String nsAddress = "localhost:" + ns;
    nameserver = daemon(home, dir, "nameserver", "nameserver", ns, true, extra.apply("nameserver"));
    memory =
        daemon(
            home,
            dir,
            "memory-host",
            "memory",
            freePort(),
            true,
            "nameserver: "
                + nsAddress
                + "\n"
                + "maxNewSeriesPerCallerPerMinute: 100000000\n"
                // Every simulated sensor calls from this machine's address: one caller.
                + "maxAppendStreamsPerCaller: 100000000\n"
                + "maxQueuedPerCaller: 4096\n"
                + "consolidationIntervalSeconds: "
                + consolidationSeconds
                + "\n"
                + extra.apply("memory"));
    forecaster =
        daemon(
            home,
            dir,
            "forecaster",
            "forecaster",
            freePort(),
            false,
            "nameserver: " + nsAddress + "\n" + extra.apply("forecaster"));
    proxy =
        daemon(
            home,
            dir,
            "proxy",
            "proxy",
            freePort(),
            false,
            "nameserver: "
                + nsAddress
                + "\n"
                + "cluster: "
                + cluster
                + "\n"
                + extra.apply("proxy"));
  }

  private static DaemonProcess daemon(
      Path home, Path dir, String label, String role, int port, boolean hasData, String extra)
      throws IOException {
    Path data = hasData ? dir.resolve(role + "-data") : null;
    Path config = dir.resolve(role + ".yaml");
    Files.writeString(
        config,
        "port: "
            + port
            + "\nmetricsPort: -1\nhost: localhost\n"
            + (hasData ? "dataDir: " + data + "\n" : "")
            + extra);
    return new DaemonProcess(home, label, role, config, port, data);
  }

  List<DaemonProcess> all() {
    return List.of(nameserver, memory, forecaster, proxy);
  }

  /** Starts all four, the nameserver first, and waits until each answers SERVING. */
  void start(NetWeatherClient admin) throws IOException, InterruptedException {
    nameserver.start();
    awaitServing(nameserver, Duration.ofMinutes(2), credentials);
    for (DaemonProcess d : List.of(memory, forecaster, proxy)) {
      d.start();
    }
    for (DaemonProcess d : List.of(memory, forecaster, proxy)) {
      awaitServing(d, Duration.ofMinutes(2), credentials);
    }
    await(
        "the memory-host and forecaster registering",
        Duration.ofMinutes(1),
        () ->
            !admin.search("(kind=memory)").isEmpty()
                && !admin.search("(kind=forecaster)").isEmpty());
  }

  /**
   * Waits until {@code d}'s health service says SERVING; returns when, System.nanoTime(). Each try
   * is on a new channel: a channel that saw the daemon die waits out a reconnect back-off, which
   * would be counted as the daemon's restart time.
   */
  static long awaitServing(DaemonProcess d, Duration timeout) throws InterruptedException {
    return awaitServing(d, timeout, InsecureChannelCredentials.create());
  }

  static long awaitServing(DaemonProcess d, Duration timeout, ChannelCredentials credentials)
      throws InterruptedException {
    await(
        d.label + " serving (log: " + d.log() + ")",
        timeout,
        () -> {
          if (!d.alive()) {
            throw new IllegalStateException(d.label + " exited; see " + d.log());
          }
          ManagedChannel ch = Grpc.newChannelBuilder(d.address(), credentials).build();
          try {
            return HealthGrpc.newBlockingStub(ch)
                    .withDeadlineAfter(5, TimeUnit.SECONDS)
                    .check(HealthCheckRequest.getDefaultInstance())
                    .getStatus()
                == ServingStatus.SERVING;
          } finally {
            ch.shutdownNow();
          }
        });
    return System.nanoTime();
  }

  static void await(String what, Duration timeout, BooleanSupplier done)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        if (done.getAsBoolean()) {
          return;
        }
      } catch (io.grpc.StatusRuntimeException e) {
        // not up yet
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }

  void stop() throws InterruptedException {
    for (DaemonProcess d : List.of(proxy, forecaster, memory, nameserver)) {
      d.stop();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
