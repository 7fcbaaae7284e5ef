package org.netweather.nameserver;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.LookupRequest;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.PutCliqueRequest;
import org.netweather.api.v1.RegisterRequest;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.api.v1.WatchCliquesRequest;
import org.netweather.api.v1.WatchCliquesResponse;
import org.netweather.client.FailoverChannel;
import org.netweather.runtime.Registrar;
import org.netweather.testing.InProcessChannels;

/**
 * Two nameservers side by side on one ZooKeeper ensemble ({@code TestingCluster} of three, each
 * test under a site path of its own): what is registered at one is found through the other, a
 * daemon whose nameserver is closed carries on at the other without its lease expiring, cliques put
 * at one stream to watchers at the other, and a ZooKeeper leader kill changes nothing observable.
 */
class NameserversSideBySideTest {
  private static TestingCluster cluster;
  private static int sites;

  @TempDir Path dir;
  private final List<AutoCloseable> open = new ArrayList<>();
  private String url;

  @BeforeAll
  static void ensemble() throws Exception {
    cluster = new TestingCluster(3);
    cluster.start();
  }

  @AfterAll
  static void stopEnsemble() throws Exception {
    cluster.close();
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  /** A nameserver on this test's site, in process under {@code name} (also its host). */
  private NameserverServer start(String name) throws Exception {
    if (url == null) {
      url = "zookeeper://" + cluster.getConnectString() + "/site" + (++sites);
    }
    NameserverProperties p =
        NameserverProperties.defaults()
            .with(NameserverProperties.DATA_DIR, dir.resolve(name).toString())
            .with(NameserverProperties.HOST, name)
            .with(NameserverProperties.ADVERTISE, name)
            .with(NameserverProperties.METRICS_PORT, -1)
            .with(NameserverProperties.REGISTRY, url);
    NameserverServer ns =
        NameserverServer.start(
            p, InProcessServerBuilder.forName(name), InProcessChannels::forAddress);
    open.add(ns);
    return ns;
  }

  private ManagedChannel channel(String addresses) {
    ManagedChannel c = FailoverChannel.open(addresses, InProcessChannels::forAddress);
    open.add(c::shutdownNow);
    return c;
  }

  private NameserverGrpc.NameserverBlockingStub stub(String addresses) {
    return NameserverGrpc.newBlockingStub(channel(addresses))
        .withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  private static Optional<Registration> lookup(NameserverGrpc.NameserverBlockingStub ns, String n) {
    try {
      return Optional.of(
          ns.withDeadlineAfter(5, TimeUnit.SECONDS)
              .lookup(LookupRequest.newBuilder().setName(n).build()));
    } catch (StatusRuntimeException e) {
      return Optional.empty();
    }
  }

  @Test
  void registeredAtOne_isFoundThroughTheOther() throws Exception {
    start("nsa");
    start("nsb");
    var a = stub("nsa:0");
    var b = stub("nsb:0");
    a.register(
        RegisterRequest.newBuilder()
            .setRegistration(ClusterSensors.sensor("alpha"))
            .setTtlSeconds(60)
            .build());
    a.register(
        RegisterRequest.newBuilder()
            .setRegistration(
                Registration.newBuilder()
                    .setName("memory@m1")
                    .setKind("memory")
                    .setAddress("m1:8050")
                    .putAttributes("zone", "z1"))
            .setTtlSeconds(60)
            .build());

    awaitTrue(() -> lookup(b, "sensor@alpha").isPresent(), "the sensor through B");
    Registration seen = lookup(b, "sensor@alpha").orElseThrow();
    assertEquals("alpha:8060", seen.getAddress());
    assertEquals("c1", seen.getAttributesOrThrow("cluster"));
    assertTrue(
        seen.getAttributesMap().keySet().stream().noneMatch(k -> k.startsWith("nws.")),
        "lease bookkeeping is not shown: " + seen.getAttributesMap());
    awaitTrue(
        () ->
            b.search(SearchRequest.newBuilder().setFilter("(zone=z1)").build())
                    .getRegistrationsCount()
                == 1,
        "the memory-host found by attribute through B");
    // Both nameservers list each other too.
    awaitTrue(
        () -> lookup(b, "nameserver@nsa").isPresent() && lookup(a, "nameserver@nsb").isPresent(),
        "each nameserver through the other");
  }

  @Test
  void nameserverClosed_itsSensorCarriesOnAtTheOther_withoutItsLeaseExpiring() throws Exception {
    NameserverServer nsA = start("nsa");
    NameserverServer nsB = start("nsb");
    var b = stub("nsb:0");
    ScheduledExecutorService beats = Executors.newSingleThreadScheduledExecutor();
    open.add(beats::shutdownNow);
    // TTL 3 s: heartbeats every second, a lease expires 3 s after its last one.
    Registrar sensor =
        new Registrar(
                channel("nsa:0,nsb:0"),
                ClusterSensors.sensor("alpha"),
                Duration.ofSeconds(3),
                beats,
                false)
            .start();
    open.add(sensor);
    awaitTrue(() -> nsA.nameserver().lookup("sensor@alpha").isPresent(), "registered at A");
    long registeredMs = nsA.nameserver().lookup("sensor@alpha").orElseThrow().getRegisteredMs();
    awaitTrue(() -> lookup(b, "sensor@alpha").isPresent(), "listed through B");

    long closed = System.nanoTime();
    nsA.close();
    open.remove(nsA);

    // B holds the lease within a heartbeat or so (the sensor moved, or B adopted A's leases).
    awaitTrue(() -> nsB.nameserver().heldHere("hosts/c1").contains("sensor@alpha"), "held by B");
    System.out.printf(
        "nameserver A closed: its sensor's lease held by B %d ms later%n",
        Duration.ofNanos(System.nanoTime() - closed).toMillis());
    // It stays listed through B for two more TTLs, under the very registration made at A: no
    // lease expired meanwhile, so the sensor never had to register again.
    long until = System.nanoTime() + Duration.ofSeconds(6).toNanos();
    while (System.nanoTime() < until) {
      Registration r = lookup(b, "sensor@alpha").orElseThrow(() -> new AssertionError("gone"));
      assertEquals(registeredMs, r.getRegisteredMs(), "registered again: a lease expired");
      Thread.sleep(200);
    }
    assertTrue(
        nsB.nameserver().missing("", 100).items().stream()
            .noneMatch(m -> m.getRegistration().getName().equals("sensor@alpha")),
        "the sensor never went missing at B");
  }

  @Test
  void nameserverClosed_itsIdleRecordsGoAfterOneTtl_atTheOther() throws Exception {
    NameserverServer nsA = start("nsa");
    NameserverServer nsB = start("nsb");
    stub("nsa:0")
        .register(
            RegisterRequest.newBuilder()
                .setRegistration(ClusterSensors.sensor("gone"))
                .setTtlSeconds(2)
                .build());
    var b = stub("nsb:0");
    awaitTrue(() -> lookup(b, "sensor@gone").isPresent(), "listed through B");
    nsA.close();
    open.remove(nsA);
    // Adopted by B with one TTL of grace; nobody heartbeats, so it expires there and its record
    // leaves the registry.
    awaitTrue(() -> lookup(b, "sensor@gone").isEmpty(), "expired at B");
    awaitTrue(
        () ->
            nsB.nameserver().missing("", 100).items().stream()
                .anyMatch(m -> m.getRegistration().getName().equals("sensor@gone")),
        "listed as missing at B");
    awaitTrue(
        () -> lookup(b, "nameserver@nsa").isEmpty(), "the closed nameserver's own record gone");
  }

  @Test
  void cliquePutAtOne_streamsToAWatcherOfTheOther() throws Exception {
    start("nsa");
    start("nsb");
    BlockingQueue<WatchCliquesResponse> seen = new LinkedBlockingQueue<>();
    NameserverGrpc.newStub(channel("nsa:0"))
        .watchCliques(
            WatchCliquesRequest.newBuilder().setHost("alpha").build(),
            new StreamObserver<>() {
              @Override
              public void onNext(WatchCliquesResponse r) {
                seen.add(r);
              }

              @Override
              public void onError(Throwable t) {}

              @Override
              public void onCompleted() {}
            });
    WatchCliquesResponse first = seen.poll(10, TimeUnit.SECONDS);
    assertEquals(0, first.getCliquesCount(), "no clique yet");

    Clique c =
        Clique.newBuilder()
            .setName("c1")
            .addMembers("alpha")
            .addMembers("beta")
            .setPeriodSeconds(60)
            .addSkills("tcp.latency")
            .build();
    stub("nsb:0").putClique(PutCliqueRequest.newBuilder().setClique(c).build());

    WatchCliquesResponse next = seen.poll(20, TimeUnit.SECONDS);
    assertTrue(next != null, "the watcher at A heard of the clique put at B");
    assertEquals(List.of(c), next.getCliquesList());
  }

  @Test
  void zooKeeperLeaderKilled_changesNothingObservable() throws Exception {
    NameserverServer nsA = start("nsa");
    NameserverServer nsB = start("nsb");
    var b = stub("nsb:0");
    ScheduledExecutorService beats = Executors.newSingleThreadScheduledExecutor();
    open.add(beats::shutdownNow);
    Registrar sensor =
        new Registrar(
                channel("nsa:0,nsb:0"),
                ClusterSensors.sensor("alpha"),
                Duration.ofSeconds(3),
                beats,
                false)
            .start();
    open.add(sensor);
    awaitTrue(() -> lookup(b, "sensor@alpha").isPresent(), "listed through B");
    long registeredMs = lookup(b, "sensor@alpha").orElseThrow().getRegisteredMs();

    InstanceSpec leader = leader();
    cluster.killServer(leader);
    try {
      // Through the election and for two TTLs: served by both, never registered again.
      long until = System.nanoTime() + Duration.ofSeconds(6).toNanos();
      while (System.nanoTime() < until) {
        assertEquals(
            registeredMs,
            nsA.nameserver().lookup("sensor@alpha").orElseThrow().getRegisteredMs(),
            "A: the lease expired or moved");
        assertEquals(
            registeredMs,
            lookup(b, "sensor@alpha").orElseThrow().getRegisteredMs(),
            "B: the record vanished");
        Thread.sleep(200);
      }
      assertTrue(nsA.nameserver().heldHere("hosts/c1").contains("sensor@alpha"));
      assertFalse(nsB.nameserver().heldHere("hosts/c1").contains("sensor@alpha"));
      // A registration once the ensemble has its new leader reaches the other nameserver. (On a
      // loaded machine the election can take longer than a call's deadline: wait for it.)
      var toB = stub("nsb:0");
      awaitTrue(
          () -> {
            try {
              toB.withDeadlineAfter(10, TimeUnit.SECONDS)
                  .register(
                      RegisterRequest.newBuilder()
                          .setRegistration(ClusterSensors.sensor("beta"))
                          .setTtlSeconds(60)
                          .build());
              return true;
            } catch (StatusRuntimeException e) {
              return false;
            }
          },
          "a registration through B after the election");
      awaitTrue(() -> nsA.nameserver().lookup("sensor@beta").isPresent(), "beta through A after");
    } finally {
      cluster.restartServer(leader);
    }
  }

  /** The server whose {@code srvr} answer says {@code Mode: leader}. */
  private static InstanceSpec leader() throws Exception {
    for (InstanceSpec spec : cluster.getInstances()) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", spec.getPort()), 5_000);
        OutputStream out = s.getOutputStream();
        out.write("srvr".getBytes(UTF_8));
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
          if (line.equals("Mode: leader")) {
            return spec;
          }
        }
      }
    }
    throw new AssertionError("no leader in the ensemble");
  }

  private static void awaitTrue(BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 30 s: " + what);
      }
      Thread.sleep(20);
    }
  }
}
