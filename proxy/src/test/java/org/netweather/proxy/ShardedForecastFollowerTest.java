package org.netweather.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.benmanes.caffeine.cache.Ticker;
import io.grpc.Server;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.HostSnapshot;
import org.netweather.api.v1.PairSnapshot;
import org.netweather.api.v1.Registration;
import org.netweather.client.ContractForecaster;
import org.netweather.client.ContractSite;
import org.netweather.client.NetWeatherClient;
import org.netweather.client.ShardRouter;
import org.netweather.model.shard.Shards;
import org.netweather.testing.GrpcCleanupExtension;
import org.netweather.testing.InProcessChannels;
import org.netweather.testing.Poll;

/**
 * The proxy's cluster cache over three forecasters that share the shards: complete from the owners
 * of its hosts, and complete again from the survivors after one of them stops.
 */
class ShardedForecastFollowerTest {
  private static final int HOSTS = 8;
  private static final Duration WAIT = Duration.ofSeconds(30);

  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();

  private final SearchOnlyNameserver ns = new SearchOnlyNameserver();
  private final ContractSite site = new ContractSite(snapshotSeries(HOSTS));
  private final Map<String, Server> servers = new ConcurrentHashMap<>();
  private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
  private final List<String> hosts = new ArrayList<>();
  private ClusterCache cache;
  private ForecastFollower follower;

  @BeforeEach
  void setUp() throws IOException {
    String nsName = GrpcCleanupExtension.newName();
    grpc.register(InProcessServerBuilder.forName(nsName).addService(ns).build().start());
    for (String name : List.of("f1", "f2", "f3")) {
      start(name);
    }
    site.serve(Set.of("f1", "f2", "f3"));
    for (int i = 0; i < HOSTS; i++) {
      hosts.add("h" + i);
    }
    Set<String> owners = new HashSet<>();
    hosts.forEach(h -> owners.add(site.ownerOf("cpu.availability:" + h).name));
    assertEquals(3, owners.size(), "the test's hosts should be spread over all three");

    NetWeatherClient client =
        NetWeatherClient.forChannel(grpc.channel(nsName))
            .deadline(Duration.ofSeconds(2))
            .maxAttempts(1)
            .channels(InProcessChannels::forAddress)
            .scheduler(scheduler)
            .build();
    ForecastFollower[] f = new ForecastFollower[1];
    cache =
        new ClusterCache(
            "c",
            ClusterCache.Settings.defaults(),
            series -> f[0].fetch(series),
            scheduler,
            Ticker.systemTicker(),
            System::currentTimeMillis);
    cache.setHosts(hosts);
    follower = f[0] = new ForecastFollower(client, cache, scheduler);
  }

  @AfterEach
  void tearDown() {
    follower.close();
    scheduler.shutdownNow();
  }

  private void start(String name) throws IOException {
    ContractForecaster f = site.add(name);
    String server = GrpcCleanupExtension.newName();
    servers.put(
        name, grpc.register(InProcessServerBuilder.forName(server).addService(f).build().start()));
    f.address = server + ":1";
    ns.registrations.add(
        Registration.newBuilder()
            .setName(name)
            .setKind("forecaster")
            .setAddress(f.address)
            .putAttributes(ShardRouter.SHARDING, ShardRouter.RENDEZVOUS)
            .build());
  }

  /**
   * How many of the snapshot's values (CPU and memory of each host, bandwidth and latency of each
   * pair) are there and come from the forecaster that serves their series now.
   */
  private long currentValues() {
    ClusterSnapshot s = cache.snapshot();
    long n = 0;
    for (HostSnapshot h : s.getHostsList()) {
      n +=
          fromOwner(
              h.hasCpuAvailability(),
              h.getCpuAvailability().getValue(),
              "cpu.availability:" + h.getHost());
      n += fromOwner(h.hasMemoryFree(), h.getMemoryFree().getValue(), "memory.free:" + h.getHost());
    }
    for (PairSnapshot p : s.getPairsList()) {
      String pair = p.getSrc() + "->" + p.getDst();
      n += fromOwner(p.hasBandwidth(), p.getBandwidth().getValue(), "tcp.bandwidth:" + pair);
      n += fromOwner(p.hasLatency(), p.getLatency().getValue(), "tcp.latency:" + pair);
    }
    return n;
  }

  private int fromOwner(boolean present, double value, String series) {
    return present && value == site.ownerOf(series).number ? 1 : 0;
  }

  private void awaitComplete() throws InterruptedException {
    long all = 2L * HOSTS + 2L * HOSTS * (HOSTS - 1);
    assertEquals(all, Poll.until(this::currentValues, n -> n == all, WAIT));
    assertEquals(0, cache.snapshot().getMissingPairsCount());
  }

  @Test
  void snapshot_isCompleteFromTheOwners_andAgainAfterAForecasterStops() throws Exception {
    follower.restart();
    awaitComplete();
    for (ContractForecaster f : site.byName.values()) {
      assertEquals(1, f.watchers(), f.name + ": one watch per owning forecaster");
      assertTrue(
          f.calls.stream()
              .filter(c -> c.startsWith("watchForecasts "))
              .flatMap(c -> List.of(c.substring("watchForecasts ".length()).split(",")).stream())
              .allMatch(p -> site.ownerOf("cpu.availability:" + host(p)) == f),
          f.name + " was asked to watch hosts it does not own");
    }

    servers.get("f3").shutdownNow();
    ns.registrations.removeIf(r -> r.getName().equals("f3"));
    site.serve(Set.of("f1", "f2"));
    // The survivors end their streams as f3's shards arrive.
    site.byName.get("f1").shardMoved(Shards.ofHost("h0"));
    site.byName.get("f2").shardMoved(Shards.ofHost("h0"));
    awaitComplete();
    assertFalse(
        cache.snapshot().getHostsList().stream()
            .anyMatch(h -> h.getCpuAvailability().getValue() == 3),
        "a value from the stopped forecaster is left");
  }

  /** The host of a proxy pattern, {@code *:h} or {@code *:h->*}. */
  private static String host(String pattern) {
    String rest = pattern.substring(pattern.indexOf(':') + 1);
    int arrow = rest.indexOf("->");
    return arrow < 0 ? rest : rest.substring(0, arrow);
  }

  @Test
  void fetch_readsFromTheOwner() {
    for (String h : hosts) {
      String s = "cpu.availability:" + h;
      assertEquals(site.ownerOf(s).number, follower.fetch(s).getValue(), s);
    }
  }

  /** What a complete snapshot of hosts {@code h0 .. h(n-1)} needs: CPU, memory, each pair's. */
  private static List<String> snapshotSeries(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add("cpu.availability:h" + i);
      out.add("memory.free:h" + i);
      for (int j = 0; j < n; j++) {
        if (i != j) {
          out.add("tcp.bandwidth:h" + i + "->h" + j);
          out.add("tcp.latency:h" + i + "->h" + j);
        }
      }
    }
    return out;
  }
}
