package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.Criterion;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.ForecastUpdate;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.GetForecastsResponse;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.client.NetWeatherClient;
import org.netweather.client.Subscription;
import org.netweather.forecaster.ForecasterProperties;
import org.netweather.forecaster.ForecasterServer;
import org.netweather.memoryhost.MeasurementStore;
import org.netweather.memoryhost.MemoryHostService;
import org.netweather.model.shard.Rendezvous;
import org.netweather.model.shard.Shards;
import org.netweather.nameserver.Nameserver;
import org.netweather.nameserver.NameserverService;
import org.netweather.proxy.ProxyProperties;
import org.netweather.proxy.ProxyServer;
import org.netweather.testing.InProcessChannels;

/**
 * The client library and the proxy on a site of three forecasters that share the shards through a
 * ZooKeeper server (curator-test, in this JVM): every forecast call reaches the series' owner,
 * patterns are merged, a watch and the proxy's snapshot are complete, and all are again after one
 * forecaster stops and the survivors take its shards (docs/routing.md).
 */
class RoutingOverShardedForecastersTest {
  private static final List<String> IDS = List.of("f1", "f2", "f3");
  private static final int HOSTS = 60;

  @TempDir Path dir;
  private final ExecutorService watchPool = Executors.newFixedThreadPool(2);
  private TestingServer zookeeper;
  private Nameserver ns;
  private Server nsServer;
  private MeasurementStore store;
  private Server memServer;
  private final Map<String, ForecasterServer> forecasters = new TreeMap<>();
  private final List<String> series = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    zookeeper = new TestingServer(true);
    ns = Nameserver.open(dir.resolve("ns"), Clock.systemUTC());
    nsServer =
        InProcessServerBuilder.forName("ns-sharded")
            .addService(new NameserverService(ns))
            .build()
            .start();
    ns.register(
        Registration.newBuilder()
            .setName("memory@m1")
            .setKind("memory")
            .setAddress("m1-sharded:1")
            .build(),
        3600);
    store = MeasurementStore.open(dir.resolve("mem"), 1000, Clock.systemUTC(), watchPool);
    memServer =
        InProcessServerBuilder.forName("m1-sharded")
            .addService(new MemoryHostService(store, Clock.systemUTC()))
            .build()
            .start();
    long t0 = System.currentTimeMillis() - 3_600_000;
    AppendRequest.Builder req = AppendRequest.newBuilder();
    for (int h = 0; h < HOSTS; h++) {
      for (String s : List.of("cpu.availability:h" + h, "tcp.latency:h" + h + "->zeta")) {
        series.add(s);
        SeriesPoints.Builder b = SeriesPoints.newBuilder().setSeries(s);
        for (int i = 0; i < 20; i++) {
          b.addPoints(Measurement.newBuilder().setTimestampMs(t0 + i * 1000L).setValue(0.5));
        }
        req.addBatches(b);
      }
    }
    ManagedChannel ch = InProcessChannelBuilder.forName("m1-sharded").build();
    try {
      MemoryHostGrpc.newBlockingStub(ch).append(req.build());
    } finally {
      ch.shutdownNow();
    }
    for (String id : IDS) {
      start(id);
    }
  }

  private void start(String id) throws Exception {
    ForecasterProperties p =
        ForecasterProperties.defaults()
            .with(ForecasterProperties.NAMESERVER, "ns-sharded:1")
            .with(ForecasterProperties.HOST, id)
            .with(ForecasterProperties.DISCOVERY_MS, 100L)
            .with(ForecasterProperties.BURN_IN, 10)
            .with(
                ForecasterProperties.REGISTRY,
                "zookeeper://" + zookeeper.getConnectString() + "/site");
    forecasters.put(
        id,
        ForecasterServer.start(
            p, InProcessServerBuilder.forName("fc-" + id), InProcessChannels::forAddress));
  }

  @AfterEach
  void tearDown() throws Exception {
    for (ForecasterServer f : forecasters.values()) {
      f.close();
    }
    memServer.shutdownNow();
    store.close();
    nsServer.shutdownNow();
    ns.close();
    watchPool.shutdownNow();
    zookeeper.close();
  }

  private static String name(String id) {
    return "forecaster@" + id;
  }

  private ForecasterGrpc.ForecasterBlockingStub stub(String id) {
    ManagedChannel ch = InProcessChannelBuilder.forName("fc-" + id).build();
    channels.add(ch);
    return ForecasterGrpc.newBlockingStub(ch);
  }

  private final List<ManagedChannel> channels = new ArrayList<>();

  @AfterEach
  void closeChannels() {
    channels.forEach(ManagedChannel::shutdownNow);
  }

  /** The owner of a series' shard among {@code live} forecasters (ids). */
  private static String owner(String series, List<String> live) {
    List<String> names = live.stream().map(RoutingOverShardedForecastersTest::name).toList();
    String owner = Rendezvous.owner(Shards.of(series), names).orElseThrow();
    return owner.substring("forecaster@".length());
  }

  /** Every shard served by exactly one of {@code live}, each serving exactly what it owns. */
  private boolean settled(List<String> live) {
    int total = 0;
    for (String id : live) {
      ForecasterServer f = forecasters.get(id);
      if (!f.servedShards().equals(f.ownedShards())) {
        return false;
      }
      total += f.servedShards().size();
    }
    if (total != Shards.COUNT) {
      return false;
    }
    for (String s : series) {
      String owner = owner(s, live);
      if (!forecasters.get(owner).servedShards().contains(Shards.of(s))
          || forecasters.get(owner).forecasts().get(s).isEmpty()) {
        return false;
      }
    }
    return true;
  }

  private static ManagedChannel open(String address) {
    String host = address.substring(0, address.lastIndexOf(':'));
    return InProcessChannelBuilder.forName(IDS.contains(host) ? "fc-" + host : host).build();
  }

  @Test
  void clientAndProxy_routeToTheOwners_andAgainAfterOneStops() throws Exception {
    await(() -> settled(IDS), "three forecasters settled");
    ManagedChannel nsCh = InProcessChannelBuilder.forName("ns-sharded").build();
    channels.add(nsCh);
    NetWeatherClient client =
        NetWeatherClient.forChannel(nsCh)
            .channels(RoutingOverShardedForecastersTest::open)
            .deadline(Duration.ofSeconds(5))
            .build();
    for (String s : series) {
      assertEquals(0.5, client.forecast(s, Criterion.CRITERION_MSE).getValue(), 1e-9, s);
    }
    GetForecastsResponse all = client.forecasts(List.of("*", "nothing:*"), Criterion.CRITERION_MSE);
    assertEquals(series.size(), all.getForecastsCount());
    assertEquals(List.of("nothing:*"), all.getNotFoundList());
    GetForecastsResponse named = client.forecasts(series, Criterion.CRITERION_MSE);
    assertEquals(series.size(), named.getForecastsCount());
    assertEquals(0, named.getNotOwnedCount());

    Map<String, Forecast> seen = new ConcurrentHashMap<>();
    List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
    Subscription w =
        client.watchForecasts(
            List.of("cpu.availability:*", "*:h1->*"),
            Criterion.CRITERION_MSE,
            new StreamObserver<>() {
              @Override
              public void onNext(ForecastUpdate u) {
                seen.put(u.getForecast().getSeries(), u.getForecast());
              }

              @Override
              public void onError(Throwable t) {
                errors.add(t);
              }

              @Override
              public void onCompleted() {}
            });
    int watched = HOSTS + 1;
    await(() -> seen.size() == watched, "the watch delivered every series");

    ProxyServer proxy =
        ProxyServer.start(
            ProxyProperties.defaults()
                .with(ProxyProperties.NAMESERVER, "ns-sharded:1")
                .with(ProxyProperties.CLUSTER, "c")
                .with(
                    ProxyProperties.HOSTS, List.of("h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7"))
                .with(ProxyProperties.HOST, "p")
                .with(ProxyProperties.DISCOVERY_MS, 100L),
            InProcessServerBuilder.forName("proxy-r"),
            RoutingOverShardedForecastersTest::open);
    try {
      await(
          () ->
              proxy.cache().snapshot().getHostsList().stream()
                      .filter(h -> h.hasCpuAvailability())
                      .count()
                  == 8,
          "the proxy has every host's CPU");

      // No measurement arrives from here on: whatever the watch delivers now comes from the legs
      // it opened again at the survivors, which begin with the current forecasts.
      seen.clear();
      forecasters.remove("f2").close();
      List<String> survivors = List.of("f1", "f3");
      await(() -> settled(survivors), "the survivors took f2's shards");
      await(() -> seen.size() == watched, "the watch delivered every series again");
      await(
          () -> {
            try {
              for (String s : series) {
                client.forecast(s, Criterion.CRITERION_MSE);
              }
              return client.forecasts(List.of("*"), Criterion.CRITERION_MSE).getForecastsCount()
                  == series.size();
            } catch (StatusRuntimeException e) {
              return false;
            }
          },
          "every series forecast through the client again");
      assertEquals(
          8,
          proxy.cache().snapshot().getHostsList().stream()
              .filter(h -> h.hasCpuAvailability())
              .count());
    } finally {
      w.close();
      assertEquals(1, errors.size(), "the watch ended only when closed: " + errors);
      proxy.close();
      client.close();
    }
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 60_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("not within 60 s: " + what);
      }
      Thread.sleep(50);
    }
  }
}
