package org.netweather.registry.zookeeper;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.netweather.registry.DaemonRecord;
import org.netweather.registry.HostRecord;
import org.netweather.registry.Presence;
import org.netweather.registry.Registry;
import org.netweather.registry.RegistryContract;
import org.netweather.registry.RegistryLocation;
import org.netweather.registry.RegistryState;
import org.netweather.registry.Versioned;

/**
 * The contract on ZooKeeper: an ensemble of three in this JVM (curator-test's {@link
 * TestingCluster}), each test under a chroot of its own; two registries on one chroot stand for two
 * nameservers. Plus a leader kill under writes.
 */
class ZooKeeperRegistryTest extends RegistryContract {
  private static final AtomicInteger SITES = new AtomicInteger();
  private static TestingCluster cluster;

  private final String chroot = "site" + SITES.incrementAndGet();

  @BeforeAll
  static void startEnsemble() throws Exception {
    cluster = new TestingCluster(3);
    cluster.start();
  }

  @AfterAll
  static void stopEnsemble() throws Exception {
    cluster.close();
  }

  private RegistryLocation location() {
    return RegistryLocation.parse("zookeeper://" + cluster.getConnectString() + "/" + chroot);
  }

  @Override
  protected Registry openRegistry() {
    return ZooKeeperRegistry.open(location());
  }

  @Override
  protected Registry openPeer(Registry first) {
    return ZooKeeperRegistry.open(location());
  }

  /**
   * Closes the session on the ensemble from a second handle holding its id and password: the
   * servers drop its ephemeral znodes and the registry's client learns that its session expired, as
   * after a partition longer than the session timeout.
   */
  @Override
  protected void endSession(Registry registry) throws Exception {
    ZooKeeper zk = ((ZooKeeperRegistry) registry).client().getZookeeperClient().getZooKeeper();
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper killer =
        new ZooKeeper(
            cluster.getConnectString(),
            15_000,
            e -> {
              if (e.getState() == KeeperState.SyncConnected) {
                connected.countDown();
              }
            },
            zk.getSessionId(),
            zk.getSessionPasswd());
    try {
      assertTrue(connected.await(20, TimeUnit.SECONDS), "second handle connected");
    } finally {
      killer.close();
    }
  }

  /**
   * Each registry keeps the last version of a cluster it parsed: it must serve and extend the
   * cluster as the ensemble holds it now, not as it kept it.
   */
  @Test
  void clusterChangedThroughAnother_isReadAndExtendedAsItNowIs() throws Exception {
    Registry a = open();
    Registry b = peer(a);
    a.putHost(clusterHost("h1"));
    assertEquals(List.of("h1"), hostNames(a.hosts("c1")));
    b.putHost(clusterHost("h2"));
    awaitTrue(() -> hostNames(a.hosts("c1")).equals(List.of("h1", "h2")), "b's host seen at a");
    a.putHost(clusterHost("h3"));
    assertEquals(List.of("h1", "h2", "h3"), hostNames(a.hosts("c1")), "a kept b's host");
    b.removeHost("c1", "h1");
    awaitTrue(() -> hostNames(a.hosts("c1")).equals(List.of("h2", "h3")), "b's removal seen at a");
    a.putHost(clusterHost("h4"));
    assertEquals(List.of("h2", "h3", "h4"), hostNames(a.hosts("c1")), "h1 not brought back");
    awaitTrue(
        () -> hostNames(b.hosts("c1")).equals(List.of("h2", "h3", "h4")), "the same seen at b");
  }

  private static HostRecord clusterHost(String host) {
    return new HostRecord("c1", host, host + ":8060", Map.of());
  }

  private static List<String> hostNames(List<HostRecord> hosts) {
    return hosts.stream().map(HostRecord::host).sorted().toList();
  }

  @Test
  void leaderKilled_losesNoAcknowledgedWrite_andKeepsPresence() throws Exception {
    Registry a = open();
    Registry b = peer(a);
    Presence p = a.join("forecasters", "f1", Map.of());
    long session = p.session();

    List<Integer> acked = new CopyOnWriteArrayList<>();
    List<Long> ackedAt = new CopyOnWriteArrayList<>();
    List<Throwable> failed = new CopyOnWriteArrayList<>();
    AtomicBoolean stop = new AtomicBoolean();
    Thread writer =
        new Thread(
            () -> {
              for (int i = 0; !stop.get(); i++) {
                try {
                  a.putDaemon(new DaemonRecord("d" + i, "memory", "h:1", Map.of()));
                  a.compareAndSet("w/" + i, ("v" + i).getBytes(UTF_8), Versioned.ABSENT);
                  acked.add(i);
                  ackedAt.add(System.nanoTime());
                } catch (RuntimeException e) {
                  failed.add(e);
                }
              }
            },
            "writer");
    writer.start();
    awaitTrue(() -> acked.size() >= 20, "writes before the kill");

    InstanceSpec leader = leader();
    int before = acked.size();
    cluster.killServer(leader);
    try {
      awaitTrue(() -> acked.size() >= before + 20, "writes after the kill");
      long gap = 0;
      for (int i = 1; i < ackedAt.size(); i++) {
        gap = Math.max(gap, ackedAt.get(i) - ackedAt.get(i - 1));
      }
      System.out.printf(
          "leader (server %d) killed: longest time between two acknowledged writes %d ms%n",
          leader.getServerId(), Duration.ofNanos(gap).toMillis());
    } finally {
      stop.set(true);
      writer.join(30_000);
      cluster.restartServer(leader);
    }

    assertEquals(List.of(), failed, "failed writes");
    // Every acknowledged write is there, read through the other registry once it is connected
    // again (its server may have been the one killed; meanwhile it answers from its cache).
    awaitTrue(() -> b.state() == RegistryState.CONNECTED, "the other registry reconnected");
    for (int i : acked) {
      String d = "d" + i;
      String w = "w/" + i;
      awaitTrue(() -> b.daemon(d).isPresent(), d);
      awaitTrue(() -> b.value(w).map(v -> v.version() == 0).orElse(false), w);
    }
    // The session lived through it: same member, same session, nothing to re-create.
    assertEquals(session, p.session());
    assertEquals(List.of(session), sessionsOf(b, "forecasters", "f1"));
  }

  /**
   * A process that died (its session still alive on the ensemble) and came back with the same id
   * takes its node over: the id stays listed (but for the instant between the old node's removal at
   * session expiry and its re-creation), with the new data at once and the new session after.
   */
  @Test
  void join_underAnIdHeldByADeadProcess_takesItOverWhenItsSessionEnds() throws Exception {
    Registry b = open();
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper dead =
        new ZooKeeper(
            cluster.getConnectString() + "/" + chroot,
            4_000,
            e -> {
              if (e.getState() == KeeperState.SyncConnected) {
                connected.countDown();
              }
            });
    assertTrue(connected.await(20, TimeUnit.SECONDS), "connected");
    List<org.apache.zookeeper.data.ACL> open =
        new java.util.ArrayList<>(
            List.of(
                new org.apache.zookeeper.data.ACL(
                    31, new org.apache.zookeeper.data.Id("world", "anyone"))));
    dead.create(Znodes.group("forecaster"), new byte[0], open, CreateMode.PERSISTENT);
    dead.create(
        Znodes.member("forecaster", "f1"),
        Json.write(Map.of("warm", "old")),
        open,
        CreateMode.EPHEMERAL);
    long deadSession = dead.getSessionId();
    // The client stops as if its process died; the ensemble keeps the session until it times out.
    dead.getTestable().injectSessionExpiration();
    awaitTrue(() -> sessionsOf(b, "forecaster", "f1").equals(List.of(deadSession)), "old f1");

    Presence p = b.join("forecaster", "f1", Map.of("warm", "new"));
    awaitTrue(
        () -> b.members("forecaster").get(0).data().equals(Map.of("warm", "new")), "new data");
    long start = System.nanoTime();
    long lastSeen = start;
    long longestGap = 0;
    while (!sessionsOf(b, "forecaster", "f1").equals(List.of(p.session()))) {
      long now = System.nanoTime();
      if (!sessionsOf(b, "forecaster", "f1").isEmpty()) {
        lastSeen = now;
      }
      longestGap = Math.max(longestGap, now - lastSeen);
      assertTrue(now - start < 30_000_000_000L, "taken over within 30 s");
      Thread.sleep(5);
    }
    System.out.printf(
        "f1 taken over after %d ms; longest time unlisted %d ms%n",
        Duration.ofNanos(System.nanoTime() - start).toMillis(),
        Duration.ofNanos(longestGap).toMillis());
    assertTrue(longestGap < 1_000_000_000L, "unlisted for " + longestGap + " ns");
    assertEquals(Map.of("warm", "new"), b.members("forecaster").get(0).data());
  }

  /** The server whose {@code srvr} answer says {@code Mode: leader}. */
  private static InstanceSpec leader() throws Exception {
    for (InstanceSpec spec : cluster.getInstances()) {
      if (mode(spec).equals("leader")) {
        return spec;
      }
    }
    throw new AssertionError("no leader in the ensemble");
  }

  static String mode(InstanceSpec spec) throws Exception {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", spec.getPort()), 5_000);
      OutputStream out = s.getOutputStream();
      out.write("srvr".getBytes(UTF_8));
      out.flush();
      BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), UTF_8));
      for (String line; (line = in.readLine()) != null; ) {
        if (line.startsWith("Mode: ")) {
          return line.substring("Mode: ".length()).trim();
        }
      }
    }
    return "";
  }
}
