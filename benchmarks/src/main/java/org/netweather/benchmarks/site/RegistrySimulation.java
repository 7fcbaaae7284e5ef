package org.netweather.benchmarks.site;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * {@code benchmarks/run registry-sim}: a ZooKeeper ensemble (processes), nameservers side by side
 * on it (processes), and many simulated sensors in this JVM registering and heartbeating at their
 * real period, spread over the nameservers. Prints what registering costs, each nameserver's CPU
 * per heartbeat, the ensemble's writes per second and everyone's RSS in the steady state; then
 * SIGKILLs the first nameserver and prints how long until every one of its sensors has been
 * answered by another, and whether any lease expired.
 */
public final class RegistrySimulation {
  static final String USAGE =
      """
      usage: benchmarks/run registry-sim [OPTION VALUE]...
        --sensors N          simulated sensors (100000)
        --nameservers N      nameserver processes (3)
        --zookeepers N       ZooKeeper servers (3)
        --ttl S              sensor lease TTL; a heartbeat every third of it, as the sensor (180)
        --cluster-hosts N    sensors per cluster attribute (100); a cluster is one znode
        --measure S          seconds of steady heartbeats measured (120)
        --in-flight N        registrations outstanding at once (64)
        --threads N          threads running the sensors (2)
        --register-max S     start no registration after S seconds; go on with those (3600)
        --dir DIR            data and logs (a new temporary directory, kept)
      """;

  private RegistrySimulation() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> o = parse(args);
    int sensors = intOf(o, "sensors", 100_000);
    int nameserverCount = intOf(o, "nameservers", 3);
    int zookeepers = intOf(o, "zookeepers", 3);
    int ttl = intOf(o, "ttl", 180);
    int clusterHosts = intOf(o, "cluster-hosts", 100);
    int measure = intOf(o, "measure", 120);
    int inFlight = intOf(o, "in-flight", 64);
    int threads = intOf(o, "threads", 2);
    int registerMax = intOf(o, "register-max", 3600);
    Path dir =
        o.containsKey("dir")
            ? Path.of(o.get("dir"))
            : Files.createTempDirectory("nws-registry-sim");
    Files.createDirectories(dir);
    Path home = Path.of(System.getProperty("netweather.home", "."));

    System.out.printf(
        "registry simulation: %d sensors, %d nameservers, %d ZooKeeper servers, TTL %d s"
            + " (a heartbeat every %d s), clusters of %d; %d cores; run directory %s%n",
        sensors,
        nameserverCount,
        zookeepers,
        ttl,
        ttl / 3,
        clusterHosts,
        Runtime.getRuntime().availableProcessors(),
        dir);
    ZooKeeperEnsemble zk = new ZooKeeperEnsemble(home, dir, zookeepers);
    List<DaemonProcess> nameservers = new ArrayList<>();
    for (int i = 0; i < nameserverCount; i++) {
      int port = ZooKeeperEnsemble.freePort();
      Path data = dir.resolve("nameserver-" + (i + 1) + "-data");
      Path config = dir.resolve("nameserver-" + (i + 1) + ".yaml");
      Files.writeString(
          config,
          "port: "
              + port
              // Side by side, each needs a name of its own: nameserver@ns1, ... dialled at
              // localhost.
              + "\nmetricsPort: -1\nhost: ns"
              + (i + 1)
              + "\nadvertise: localhost\ndataDir: "
              + data
              + "\nregistry: "
              + zk.registryUrl()
              + "\n");
      nameservers.add(
          new DaemonProcess(
              home,
              "nameserver-" + (i + 1),
              "nameserver",
              List.of("--config", config.toString()),
              Map.of(),
              port,
              data,
              dir.resolve("nameserver-" + (i + 1) + ".log")));
    }
    ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(threads);
    scheduler.setRemoveOnCancelPolicy(true);
    ExecutorService callbacks = Executors.newFixedThreadPool(threads);
    List<ManagedChannel> channels = new ArrayList<>();
    try {
      long t = System.nanoTime();
      zk.start();
      System.out.printf("ZooKeeper ensemble up in %.1f s: %s%n", secondsSince(t), zk.registryUrl());
      t = System.nanoTime();
      for (DaemonProcess ns : nameservers) {
        ns.start();
      }
      for (DaemonProcess ns : nameservers) {
        SiteDaemons.awaitServing(ns, Duration.ofMinutes(2));
        channels.add(
            Grpc.newChannelBuilder(ns.address(), InsecureChannelCredentials.create())
                .executor(callbacks)
                .build());
      }
      System.out.printf("%d nameservers serving in %.1f s%n", nameservers.size(), secondsSince(t));

      HeartbeatingSensors site =
          new HeartbeatingSensors(channels, scheduler, sensors, ttl, clusterHosts);
      Map<DaemonProcess, ProcSample> before = sample(zk, nameservers);
      long zxid = zk.zxid();
      t = System.nanoTime();
      site.registerAll(inFlight, TimeUnit.SECONDS.toNanos(registerMax));
      double took = secondsSince(t);
      Map<DaemonProcess, ProcSample> after = sample(zk, nameservers);
      long writes = zk.zxid() - zxid;
      System.out.printf(
          Locale.ROOT,
          "%nregistration: %d sensors in %.1f s (%.0f/s, %d retried), %d ZooKeeper writes (%.0f/s),"
              + " %d znodes%n",
          site.registered(),
          took,
          site.registered() / took,
          site.failed(),
          writes,
          writes / took,
          ZooKeeperEnsemble.znodes(zk.servers.get(0)));
      for (DaemonProcess d : before.keySet()) {
        System.out.printf(
            Locale.ROOT,
            "  %-14s %.2f cores, %.0f µs per registration, RSS %s%n",
            d.label,
            after.get(d).coresSince(before.get(d)),
            (double) after.get(d).cpuSince(before.get(d)) / Math.max(1, site.registered()),
            mib(after.get(d).rssBytes()));
      }

      // Steady state: every sensor heartbeats once per period, at its own phase.
      long[] served = new long[nameservers.size()];
      for (int i = 0; i < served.length; i++) {
        served[i] = site.served(i);
      }
      before = sample(zk, nameservers);
      ProcSample self = ProcSample.of(ProcessHandle.current().pid());
      zxid = zk.zxid();
      t = System.nanoTime();
      Thread.sleep(measure * 1000L);
      double window = secondsSince(t);
      after = sample(zk, nameservers);
      ProcSample selfAfter = ProcSample.of(ProcessHandle.current().pid());
      writes = zk.zxid() - zxid;
      long beats = 0;
      System.out.printf(Locale.ROOT, "%nsteady heartbeats, %.0f s measured:%n", window);
      for (int i = 0; i < nameservers.size(); i++) {
        DaemonProcess d = nameservers.get(i);
        long n = site.served(i) - served[i];
        beats += n;
        System.out.printf(
            Locale.ROOT,
            "  %-14s %.0f heartbeats/s, %.3f cores, %.1f µs CPU per heartbeat, RSS %s%n",
            d.label,
            n / window,
            after.get(d).coresSince(before.get(d)),
            (double) after.get(d).cpuSince(before.get(d)) / Math.max(1, n),
            mib(after.get(d).rssBytes()));
      }
      for (DaemonProcess d : zk.servers) {
        System.out.printf(
            Locale.ROOT,
            "  %-14s %s, %.3f cores, RSS %s%n",
            d.label,
            ZooKeeperEnsemble.mode(d),
            after.get(d).coresSince(before.get(d)),
            mib(after.get(d).rssBytes()));
      }
      System.out.printf(
          Locale.ROOT,
          "  all: %.0f heartbeats/s; ZooKeeper writes %d (%.2f/s); failed calls %d; expired leases"
              + " %d since the start (%d of them answered by a nameserver the sensor failed over to)"
              + "%n  simulated sensors' JVM: %.3f cores, RSS %s%n",
          beats / window,
          writes,
          writes / window,
          site.failed(),
          site.expired(),
          site.expiredElsewhere(),
          selfAfter.coresSince(self),
          mib(selfAfter.rssBytes()));

      // A nameserver dies: its sensors' next heartbeats go on to the next of their lists.
      DaemonProcess victim = nameservers.get(0);
      long expiredBefore = site.expired();
      long failoversBefore = site.failovers();
      zxid = zk.zxid();
      System.out.printf(
          "%nSIGKILL %s (first in the list of %d sensors)%n", victim.label, site.homedAt(0));
      long killed = System.nanoTime();
      victim.kill();
      long limit = killed + TimeUnit.MILLISECONDS.toNanos(3 * site.periodMs() + 30_000);
      int left;
      while ((left = site.notServedSince(0, killed)) > 0 && System.nanoTime() < limit) {
        Thread.sleep(100);
      }
      double recovered = secondsSince(killed);
      if (left > 0) {
        System.out.printf(
            Locale.ROOT, "  %d of its sensors still unanswered after %.1f s%n", left, recovered);
      } else {
        System.out.printf(
            Locale.ROOT,
            "  every one of its sensors answered by another nameserver %.1f s after the kill"
                + " (heartbeat period %d s); %d heartbeats went on to the next nameserver%n",
            recovered,
            site.periodMs() / 1000,
            site.failovers() - failoversBefore);
      }
      // One more period: a lease that was not adopted would be answered NOT_FOUND by now.
      Thread.sleep(site.periodMs() + 5_000);
      System.out.printf(
          Locale.ROOT,
          "  leases expired since the kill (heartbeats answered NOT_FOUND, within %.0f s): %d;"
              + " ZooKeeper writes in that time: %d%n",
          secondsSince(killed),
          site.expired() - expiredBefore,
          zk.zxid() - zxid);
    } finally {
      scheduler.shutdownNow();
      for (ManagedChannel c : channels) {
        c.shutdownNow();
      }
      callbacks.shutdownNow();
      for (DaemonProcess ns : nameservers) {
        ns.stop();
      }
      zk.stop();
    }
    System.out.println("logs and data: " + dir);
  }

  private static Map<DaemonProcess, ProcSample> sample(
      ZooKeeperEnsemble zk, List<DaemonProcess> nameservers) {
    Map<DaemonProcess, ProcSample> out = new LinkedHashMap<>();
    for (DaemonProcess d : nameservers) {
      if (d.alive()) {
        out.put(d, d.sample());
      }
    }
    for (DaemonProcess d : zk.servers) {
      out.put(d, d.sample());
    }
    return out;
  }

  private static double secondsSince(long nanos) {
    return (System.nanoTime() - nanos) / 1e9;
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
  }

  private static Map<String, String> parse(String[] args) {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--help") || args[i].equals("-h")) {
        System.out.print(USAGE);
        System.exit(0);
      }
      if (!args[i].startsWith("--") || i + 1 == args.length) {
        throw new IllegalArgumentException("expected --NAME VALUE at '" + args[i] + "'\n" + USAGE);
      }
      String name = args[i].substring(2);
      if (!USAGE.contains("--" + name + " ")) {
        throw new IllegalArgumentException("unknown option --" + name + "\n" + USAGE);
      }
      o.put(name, args[++i]);
    }
    return o;
  }

  private static int intOf(Map<String, String> o, String name, int fallback) {
    String v = o.get(name);
    if (v == null) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(v);
      if (n < 1) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--" + name + " must be a positive whole number, not '" + v + "'");
    }
  }
}
