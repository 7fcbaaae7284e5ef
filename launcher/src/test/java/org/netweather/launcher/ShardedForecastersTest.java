package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.rpc.ErrorInfo;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
import org.netweather.api.v1.GetForecastRequest;
import org.netweather.api.v1.GetForecastsRequest;
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
import org.netweather.model.shard.ShardSet;
import org.netweather.model.shard.Shards;
import org.netweather.nameserver.Filter;
import org.netweather.nameserver.Nameserver;
import org.netweather.nameserver.NameserverService;
import org.netweather.proxy.ProxyProperties;
import org.netweather.proxy.ProxyServer;
import org.netweather.testing.InProcessChannels;
import org.netweather.testing.MetricValues;

/**
 * Three forecasters share a site through a ZooKeeper server (curator-test, in this JVM), following
 * one in-process memory-host: they split the shards, each follows and serves only its own, refers
 * callers to the owner, and when one stops only its shards move, spread over both survivors. The
 * client library and the proxy route every call to the owners, before and after (docs/routing.md).
 */
class ShardedForecastersTest {
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
    List<String> names = live.stream().map(ShardedForecastersTest::name).toList();
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

  @Test
  void forecasters_splitTheShards_referCallers_andOnlyAStoppedOnesShardsMove() throws Exception {
    await(() -> settled(IDS), "three forecasters settled");
    // The three (one daemon label in this JVM) own and serve 4096 shards between them.
    assertEquals(
        4096, MetricValues.of("netweather_forecaster_owned_shards", "daemon", "forecaster"));
    assertEquals(
        4096, MetricValues.of("netweather_forecaster_warm_shards", "daemon", "forecaster"));
    assertEquals(
        "rendezvous",
        ns.search(Filter.parse("(kind=forecaster)")).stream()
            .filter(r -> r.getName().equals(name("f1")))
            .findFirst()
            .orElseThrow()
            .getAttributesOrThrow("sharding"));
    for (String id : IDS) {
      int owned = forecasters.get(id).ownedShards().size();
      assertTrue(owned > 1200 && owned < 1550, id + " owns " + owned + " of 4096 shards");
      // It follows only its shards: a battery for its series and no other.
      long mine = series.stream().filter(s -> owner(s, IDS).equals(id)).count();
      assertEquals(mine, forecasters.get(id).forecasts().size(), id + " keeps only its series");
    }
    assertEachSeriesAnsweredByItsOwnerOnly(IDS);

    // A forecaster asked for another's series refers the caller to the owner.
    String foreign = series.stream().filter(s -> !owner(s, IDS).equals("f1")).findFirst().get();
    String owner = owner(foreign, IDS);
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                stub("f1").getForecast(GetForecastRequest.newBuilder().setSeries(foreign).build()));
    assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
    ErrorInfo info = StatusProto.fromThrowable(e).getDetails(0).unpack(ErrorInfo.class);
    assertEquals("SHARD_NOT_OWNED", info.getReason());
    assertEquals("netweather.org", info.getDomain());
    assertEquals(Integer.toString(Shards.of(foreign)), info.getMetadataOrThrow("shard"));
    assertEquals(name(owner), info.getMetadataOrThrow("owner"));
    assertEquals(owner + ":0", info.getMetadataOrThrow("owner_address"));
    GetForecastsResponse named =
        stub("f1").getForecasts(GetForecastsRequest.newBuilder().addSeries(foreign).build());
    assertEquals(List.of(foreign), named.getNotOwnedList());
    assertEquals(0, named.getForecastsCount());

    // A watch over every series ends with SHARD_NOT_OWNED when shards move.
    Iterator<ForecastUpdate> watch =
        stub("f1").watchForecasts(GetForecastsRequest.newBuilder().addSeries("*").build());
    assertTrue(watch.hasNext());

    // A restart under the same id, quicker than the settle time: no shard changes owner.
    Map<String, ShardSet> before = new TreeMap<>();
    IDS.forEach(id -> before.put(id, forecasters.get(id).ownedShards()));
    forecasters.remove("f3").close();
    start("f3");
    long until = System.currentTimeMillis() + 4_000;
    while (System.currentTimeMillis() < until) {
      assertEquals(before.get("f1"), forecasters.get("f1").ownedShards(), "f1 during f3's restart");
      assertEquals(before.get("f2"), forecasters.get("f2").ownedShards(), "f2 during f3's restart");
      Thread.sleep(20);
    }
    assertEquals(before.get("f3"), forecasters.get("f3").ownedShards());
    await(() -> settled(IDS), "settled again after the restart");
    assertEachSeriesAnsweredByItsOwnerOnly(IDS);

    // f2 stops (its session closes): only its shards move, spread over both survivors.
    forecasters.remove("f2").close();
    List<String> survivors = List.of("f1", "f3");
    await(() -> settled(survivors), "the survivors took f2's shards");
    int toF1 = 0;
    int toF3 = 0;
    for (int s = 0; s < Shards.COUNT; s++) {
      if (before.get("f1").contains(s)) {
        assertTrue(forecasters.get("f1").ownedShards().contains(s), "f1 kept shard " + s);
      }
      if (before.get("f3").contains(s)) {
        assertTrue(forecasters.get("f3").ownedShards().contains(s), "f3 kept shard " + s);
      }
      if (before.get("f2").contains(s)) {
        toF1 += forecasters.get("f1").ownedShards().contains(s) ? 1 : 0;
        toF3 += forecasters.get("f3").ownedShards().contains(s) ? 1 : 0;
      }
    }
    assertEquals(before.get("f2").size(), toF1 + toF3);
    assertTrue(toF1 > 400 && toF3 > 400, "f2's shards spread: " + toF1 + " and " + toF3);
    assertEachSeriesAnsweredByItsOwnerOnly(survivors);
    StatusRuntimeException ended = assertThrows(StatusRuntimeException.class, () -> drain(watch));
    assertEquals(Status.Code.FAILED_PRECONDITION, ended.getStatus().getCode());
    assertEquals(
        "SHARD_NOT_OWNED",
        StatusProto.fromThrowable(ended).getDetails(0).unpack(ErrorInfo.class).getReason());
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
            .channels(ShardedForecastersTest::open)
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
            ShardedForecastersTest::open);
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

  private static void drain(Iterator<ForecastUpdate> watch) {
    while (watch.hasNext()) {
      watch.next();
    }
  }

  /** Each series answered by its owner and by no other forecaster, by name or by pattern. */
  private void assertEachSeriesAnsweredByItsOwnerOnly(List<String> live) {
    Set<String> byPattern = new HashSet<>();
    for (String id : live) {
      for (Forecast f :
          stub(id)
              .getForecasts(GetForecastsRequest.newBuilder().addSeries("*").build())
              .getForecastsList()) {
        assertTrue(byPattern.add(f.getSeries()), f.getSeries() + " answered twice");
        assertEquals(owner(f.getSeries(), live), id, f.getSeries() + " answered by " + id);
      }
    }
    assertEquals(new HashSet<>(series), byPattern, "every series forecast");
    for (String s : series) {
      String owner = owner(s, live);
      for (String id : live) {
        GetForecastRequest req = GetForecastRequest.newBuilder().setSeries(s).build();
        if (id.equals(owner)) {
          assertEquals(0.5, stub(id).getForecast(req).getValue(), 1e-9);
        } else {
          StatusRuntimeException e =
              assertThrows(StatusRuntimeException.class, () -> stub(id).getForecast(req));
          assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode(), s + " at " + id);
        }
      }
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
