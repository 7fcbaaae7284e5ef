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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

  /** Every nameserver, the first being {@link #nameserver}. */
  final List<DaemonProcess> nameservers = new ArrayList<>();

  /** Every forecaster, the first being {@link #forecaster}. */
  final List<DaemonProcess> forecasters = new ArrayList<>();

  /** The ensemble the site's registry is on; null on the local registry. */
  final ZooKeeperEnsemble zookeeper;

  private final ChannelCredentials credentials;

  SiteDaemons(Path home, Path dir, SiteOptions options) throws IOException {
    this(
        home,
        dir,
        options.consolidationSeconds(),
        SitePlan.cluster(0, options.clusterHosts()),
        role -> "",
        InsecureChannelCredentials.create(),
        options.forecasters(),
        options.nameservers());
  }

  SiteDaemons(
      Path home,
      Path dir,
      int consolidationSeconds,
      String cluster,
      Function<String, String> extra,
      ChannelCredentials credentials)
      throws IOException {
    this(home, dir, consolidationSeconds, cluster, extra, credentials, 1, 1);
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
      ChannelCredentials credentials,
      int forecasterCount,
      int nameserverCount)
      throws IOException {
    this.credentials = credentials;
    Files.createDirectories(dir);
    zookeeper =
        forecasterCount > 1 || nameserverCount > 1 ? new ZooKeeperEnsemble(home, dir, 3) : null;
    String registry = zookeeper == null ? "" : "registry: " + zookeeper.registryUrl() + "\n";
    List<Integer> nsPorts = new ArrayList<>();
    for (int i = 0; i < nameserverCount; i++) {
      nsPorts.add(freePort());
    }
    String nsAddress = String.join(",", nsPorts.stream().map(p -> "localhost:" + p).toList());
    for (int i = 0; i < nameserverCount; i++) {
      String suffix = i == 0 ? "" : "-" + (i + 1);
      // Side by side, each needs a name of its own (nameserver@HOST): a host name of its own,
      // dialled at localhost.
      String host = zookeeper == null ? "localhost" : "ns" + (i + 1);
      nameservers.add(
          daemon(
              home,
              dir,
              "nameserver" + suffix,
              "nameserver",
              host,
              nsPorts.get(i),
              true,
              registry
                  + (zookeeper == null ? "" : "advertise: localhost\n")
                  + extra.apply("nameserver")));
    }
    nameserver = nameservers.get(0);
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
                // It joins the memory-host group there, from which the nameservers place series.
                + registry
                + extra.apply("memory"));
    for (int i = 0; i < forecasterCount; i++) {
      String suffix = i == 0 ? "" : "-" + (i + 1);
      DaemonProcess d =
          daemon(
              home,
              dir,
              "forecaster" + suffix,
              "forecaster",
              freePort(),
              false,
              "nameserver: "
                  + nsAddress
                  + "\n"
                  + registry
                  // Each joins the forecaster group under its registration name: its own.
                  + "name: forecaster"
                  + suffix
                  + "@localhost\n"
                  + extra.apply("forecaster"));
      if (forecasterCount > 1) {
        // bin/nws lets a forecaster's heap grow to 60 % of memory, as for one per machine; K of
        // them on this one machine would each grow that far under the fill's allocation and
        // crowd out the rest. Each gets room for the share it holds after one of them dies.
        d =
            d.withEnvironment(
                Map.of("NWS_FORECASTER_RAM_PERCENT", "" + Math.max(15, 90 / forecasterCount)));
      }
      forecasters.add(d);
    }
    forecaster = forecasters.get(0);
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
    return daemon(home, dir, label, role, "localhost", port, hasData, extra);
  }

  private static DaemonProcess daemon(
      Path home,
      Path dir,
      String label,
      String role,
      String host,
      int port,
      boolean hasData,
      String extra)
      throws IOException {
    // Named by label: several daemons of one role each have their own file, log and data.
    Path data = hasData ? dir.resolve(label.replace("memory-host", "memory") + "-data") : null;
    Path config = dir.resolve(label.replace("memory-host", "memory") + ".yaml");
    Files.writeString(
        config,
        "port: "
            + port
            + "\nmetricsPort: -1\nhost: "
            + host
            + "\n"
            + (hasData ? "dataDir: " + data + "\n" : "")
            + extra);
    return new DaemonProcess(home, label, role, config, port, data);
  }

  /** The registration name of a forecaster, which is also its member id in the group. */
  static String forecasterName(DaemonProcess d) {
    return d.label + "@localhost";
  }

  /** The address list every sensor, daemon and client is given: every nameserver. */
  String nameserverList() {
    return String.join(",", nameservers.stream().map(DaemonProcess::address).toList());
  }

  List<DaemonProcess> all() {
    List<DaemonProcess> all = new ArrayList<>(nameservers);
    all.add(memory);
    all.addAll(forecasters);
    all.add(proxy);
    if (zookeeper != null) {
      all.addAll(zookeeper.servers);
    }
    return all;
  }

  /** Starts all four, the nameserver first, and waits until each answers SERVING. */
  void start(NetWeatherClient admin) throws IOException, InterruptedException {
    if (zookeeper != null) {
      zookeeper.start();
    }
    for (DaemonProcess d : nameservers) {
      d.start();
    }
    for (DaemonProcess d : nameservers) {
      awaitServing(d, Duration.ofMinutes(2), credentials);
    }
    List<DaemonProcess> rest = new ArrayList<>(List.of(memory, proxy));
    rest.addAll(forecasters);
    for (DaemonProcess d : rest) {
      d.start();
    }
    for (DaemonProcess d : rest) {
      awaitServing(d, Duration.ofMinutes(2), credentials);
    }
    await(
        "the memory-host and every forecaster registering",
        Duration.ofMinutes(1),
        () ->
            !admin.search("(kind=memory)").isEmpty()
                && admin.search("(kind=forecaster)").size() >= forecasters.size());
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
    List<DaemonProcess> order = new ArrayList<>(List.of(proxy));
    order.addAll(forecasters);
    order.add(memory);
    order.addAll(nameservers);
    for (DaemonProcess d : order) {
      d.stop();
    }
    if (zookeeper != null) {
      zookeeper.stop();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
