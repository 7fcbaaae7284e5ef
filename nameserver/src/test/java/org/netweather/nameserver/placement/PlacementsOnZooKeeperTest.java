package org.netweather.nameserver.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AssignSeriesRequest;
import org.netweather.api.v1.GetPlacementRequest;
import org.netweather.api.v1.GetPlacementResponse;
import org.netweather.api.v1.ListDirectoryRequest;
import org.netweather.api.v1.MoveShardsRequest;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.NameserverGrpc.NameserverBlockingStub;
import org.netweather.api.v1.SeriesAssignment;
import org.netweather.model.shard.Rendezvous;
import org.netweather.model.shard.Shards;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;
import org.netweather.registry.Presence;
import org.netweather.registry.RegistryLocation;
import org.netweather.registry.Versioned;
import org.netweather.registry.zookeeper.ZooKeeperRegistry;
import org.netweather.testing.FakeClock;
import org.netweather.testing.GrpcCleanupExtension;

/**
 * The placement on a real ZooKeeper server (curator-test): nameservers in this process,
 * memory-hosts as registry members of their own sessions, as a memory-host with {@code registry:
 * zookeeper://} joins.
 */
class PlacementsOnZooKeeperTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path dir;

  private TestingServer zk;
  private String url;
  private final List<AutoCloseable> open = new ArrayList<>();
  private final FakeClock clock = new FakeClock(1_800_000_000_000L);

  @BeforeEach
  void startZooKeeper() throws Exception {
    zk = new TestingServer();
    url = "zookeeper://" + zk.getConnectString() + "/site";
  }

  @AfterEach
  void stop() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    zk.close();
  }

  private ZooKeeperRegistry registry() {
    ZooKeeperRegistry r = ZooKeeperRegistry.open(RegistryLocation.parse(url));
    open.add(r);
    return r;
  }

  /** A memory-host's membership, in a session of its own. */
  private Presence memoryHost(String id) {
    return registry().join("memory", id, Map.of("address", id + ":8050"));
  }

  private NameserverBlockingStub nameserver(String name) throws Exception {
    String inProcess = GrpcCleanupExtension.newName();
    NameserverServer ns =
        NameserverServer.start(
            NameserverProperties.defaults()
                .with(NameserverProperties.DATA_DIR, dir.resolve(name).toString())
                .with(NameserverProperties.HOST, name)
                .with(NameserverProperties.METRICS_PORT, -1)
                .with(NameserverProperties.REGISTRY, url),
            GrpcCleanupExtension.serverBuilder(inProcess));
    open.add(ns);
    return NameserverGrpc.newBlockingStub(grpc.channel(inProcess));
  }

  private static List<String> series(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add("cpu.availability:host" + i);
    }
    return out;
  }

  @Test
  void placement_isCreatedOnce_andAnsweredAlikeByTwoNameservers() throws Exception {
    List<String> members = List.of("memory@a", "memory@b", "memory@c");
    members.forEach(this::memoryHost);
    NameserverBlockingStub ns1 = nameserver("ns1");
    NameserverBlockingStub ns2 = nameserver("ns2");
    AssignSeriesRequest req = AssignSeriesRequest.newBuilder().addAllSeries(series(500)).build();

    List<SeriesAssignment> one = ns1.assignSeries(req).getAssignmentsList();
    List<SeriesAssignment> two = ns2.assignSeries(req).getAssignmentsList();

    assertEquals(one, two);
    Set<String> used = new TreeSet<>();
    for (SeriesAssignment a : one) {
      int shard = Shards.of(a.getSeries());
      assertEquals(Rendezvous.owner(shard, members).orElseThrow(), a.getMemoryHost());
      assertEquals(a.getMemoryHost() + ":8050", a.getAddress());
      assertEquals(Placements.RECHECK_AFTER.toMillis(), a.getRecheckAfterMs());
      used.add(a.getMemoryHost());
    }
    assertEquals(Set.copyOf(members), used);
    // Every part was written once (version 0): by one nameserver, the other found it there.
    ZooKeeperRegistry reader = registry();
    for (int part = 0; part < PlacementPart.PARTS; part++) {
      int p = part;
      awaitTrue(() -> reader.value(PlacementPart.key(p)).isPresent());
      assertEquals(0, reader.value(PlacementPart.key(part)).orElseThrow().version(), "part " + p);
    }
    // Reads look a series up by its exact name: answered from the placement, nothing stored.
    assertEquals(
        List.of(one.get(7)),
        ns2.listSeries(ListDirectoryRequest.newBuilder().setPattern(one.get(7).getSeries()).build())
            .getAssignmentsList());
    GetPlacementResponse shown = ns2.getPlacement(GetPlacementRequest.getDefaultInstance());
    assertEquals(Shards.COUNT, shown.getShardsCount());
    assertEquals(3, shown.getMemoryHostsCount());
    assertEquals(
        Shards.COUNT, shown.getMemoryHostsList().stream().mapToInt(h -> h.getShardCount()).sum());
  }

  @Test
  void blip_aZooKeeperRestartOrAShortAbsence_movesNothing() throws Exception {
    Presence a = memoryHost("memory@a");
    memoryHost("memory@b");
    ZooKeeperRegistry shared = registry();
    Placements placements = new Placements(shared, new ShardPlacement(clock, Duration.ofHours(1)));
    open.add(placements);
    placements.assign(series(2000)); // touches every part: the whole site is placed
    List<Versioned> before = values(shared);
    assertEquals(PlacementPart.PARTS, before.size());

    // The server goes away and comes back within the session timeout: sessions live on.
    zk.restart();
    awaitTrue(() -> shared.state() == org.netweather.registry.RegistryState.CONNECTED);
    placements.maintain();
    assertEquals(before, values(shared));

    // memory@a leaves for 59 minutes (a restart that took long) and comes back.
    a.close();
    awaitTrue(() -> placements.live().size() == 1);
    placements.maintain();
    clock.advance(Duration.ofMinutes(59));
    placements.maintain();
    memoryHost("memory@a");
    awaitTrue(() -> placements.live().size() == 2);
    clock.advance(Duration.ofMinutes(59));
    placements.maintain();
    assertEquals(before, values(shared), "not one write");
  }

  @Test
  void absentPastReplaceAfter_itsShardsMoveToTheNextRankedLiveMembers_spreadOverSeveral()
      throws Exception {
    List<String> all = List.of("memory@a", "memory@b", "memory@c", "memory@d");
    Presence gone = null;
    for (String id : all) {
      Presence p = memoryHost(id);
      gone = id.equals("memory@b") ? p : gone;
    }
    ZooKeeperRegistry shared = registry();
    Placements placements = new Placements(shared, new ShardPlacement(clock, Duration.ofHours(1)));
    open.add(placements);
    placements.assign(series(2000));
    Map<Integer, String> before = firstHosts(placements);

    gone.close();
    awaitTrue(() -> placements.live().size() == 3);
    placements.maintain(); // memory@b missed from now
    clock.advance(Duration.ofMinutes(61));
    placements.maintain();

    List<String> survivors = List.of("memory@a", "memory@c", "memory@d");
    Map<String, Integer> took = new TreeMap<>();
    Map<Integer, String> after = firstHosts(placements);
    for (int shard = 0; shard < Shards.COUNT; shard++) {
      if (before.get(shard).equals("memory@b")) {
        assertEquals(Rendezvous.owner(shard, survivors).orElseThrow(), after.get(shard));
        took.merge(after.get(shard), 1, Integer::sum);
      } else {
        assertEquals(before.get(shard), after.get(shard), "shard " + shard + " stays");
      }
    }
    assertEquals(Set.copyOf(survivors), took.keySet(), took.toString());
    took.values().forEach(n -> assertTrue(n > 200, "about a third each: " + took));
  }

  @Test
  void concurrentWriters_endWithOnePlacement_holdingEveryMove() throws Exception {
    for (String id : List.of("memory@a", "memory@b", "memory@x")) {
      memoryHost(id);
    }
    Placements one = new Placements(registry(), new ShardPlacement(clock, Duration.ofHours(1)));
    Placements two = new Placements(registry(), new ShardPlacement(clock, Duration.ofHours(1)));
    open.add(one);
    open.add(two);
    one.assign(series(2000));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<List<Integer>>> moves = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        Placements via = t % 2 == 0 ? one : two;
        List<Integer> shards = List.of(t * 3, t * 3 + 1, t * 3 + 2); // all in part 0
        Callable<List<Integer>> move =
            () -> {
              go.await();
              return via.move(shards, "", "memory@x");
            };
        moves.add(pool.submit(move));
      }
      go.countDown();
      for (Future<List<Integer>> f : moves) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    Map<Integer, String> now = firstHosts(two);
    for (int shard = 0; shard < 24; shard++) {
      assertEquals("memory@x", now.get(shard), "shard " + shard + ": no move was lost");
    }
    assertEquals(firstHosts(one), now, "both read one placement");
  }

  @Test
  void badInput_isRefusedNamingIt_andTheLocalRegistryHasNoPlacement() throws Exception {
    memoryHost("memory@a");
    NameserverBlockingStub ns = nameserver("ns1");
    StatusRuntimeException shard =
        assertThrows(
            StatusRuntimeException.class,
            () -> ns.getPlacement(GetPlacementRequest.newBuilder().addShards(5000).build()));
    assertEquals(Status.Code.INVALID_ARGUMENT, shard.getStatus().getCode());
    assertTrue(shard.getStatus().getDescription().contains("shard 5000"), shard.getMessage());
    StatusRuntimeException target =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                ns.moveShards(
                    MoveShardsRequest.newBuilder()
                        .addShards(7)
                        .setToMemoryHost("memory@nowhere")
                        .build()));
    assertEquals(Status.Code.INVALID_ARGUMENT, target.getStatus().getCode());
    assertTrue(
        target.getStatus().getDescription().contains("'memory@nowhere' is not live"),
        target.getMessage());
    assertTrue(target.getStatus().getDescription().contains("live: memory@a"));

    String local = GrpcCleanupExtension.newName();
    open.add(
        NameserverServer.start(
            NameserverProperties.defaults()
                .with(NameserverProperties.DATA_DIR, dir.resolve("local").toString())
                .with(NameserverProperties.HOST, "local")
                .with(NameserverProperties.METRICS_PORT, -1),
            GrpcCleanupExtension.serverBuilder(local)));
    StatusRuntimeException refused =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                NameserverGrpc.newBlockingStub(grpc.channel(local))
                    .getPlacement(GetPlacementRequest.getDefaultInstance()));
    assertEquals(Status.Code.FAILED_PRECONDITION, refused.getStatus().getCode());
    assertTrue(refused.getStatus().getDescription().contains("ZooKeeper registry"));
  }

  private static List<Versioned> values(ZooKeeperRegistry r) {
    List<Versioned> out = new ArrayList<>();
    for (int part = 0; part < PlacementPart.PARTS; part++) {
      r.value(PlacementPart.key(part)).ifPresent(out::add);
    }
    return out;
  }

  private static Map<Integer, String> firstHosts(Placements p) {
    Map<Integer, String> out = new TreeMap<>();
    p.show(List.of(), "")
        .getShardsList()
        .forEach(s -> out.put(s.getShard(), s.getMemoryHostsList().get(0)));
    return out;
  }

  private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 20 s");
      }
      Thread.sleep(20);
    }
  }
}
