package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.DeleteSeriesRequest;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.ForecastUpdate;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.GetForecastRequest;
import org.netweather.api.v1.GetForecastsRequest;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.forecaster.ForecasterProperties;
import org.netweather.forecaster.ForecasterServer;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.memoryhost.MeasurementStore;
import org.netweather.memoryhost.MemoryHostService;
import org.netweather.nameserver.Nameserver;
import org.netweather.nameserver.NameserverService;
import org.netweather.testing.InProcessChannels;

/**
 * The forecaster follows a memory-host in-process: forecasts follow appends, and after the
 * memory-host is killed and comes back, its series resume.
 */
class ForecasterFollowTest {
  @TempDir Path dir;
  private final ExecutorService watchPool = Executors.newFixedThreadPool(2);
  private Nameserver ns;
  private Server nsServer;
  private MeasurementStore store;
  private Server memServer;
  private ForecasterServer forecaster;
  private ManagedChannel client;
  private long t0;

  @BeforeEach
  void setUp() throws Exception {
    ns = Nameserver.open(dir.resolve("ns"), Clock.systemUTC());
    nsServer =
        InProcessServerBuilder.forName("ns").addService(new NameserverService(ns)).build().start();
    ns.register(
        Registration.newBuilder().setName("memory@m1").setKind("memory").setAddress("m1:1").build(),
        3600);
    startMemory();
    ForecasterProperties p =
        ForecasterProperties.defaults()
            .with(ForecasterProperties.NAMESERVER, "ns:1")
            .with(ForecasterProperties.HOST, "f")
            .with(ForecasterProperties.DISCOVERY_MS, 100L)
            .with(ForecasterProperties.BURN_IN, 10);
    forecaster =
        ForecasterServer.start(
            p, InProcessServerBuilder.forName("forecaster"), InProcessChannels::forAddress);
    client = InProcessChannelBuilder.forName("forecaster").build();
    t0 = System.currentTimeMillis() - 3_600_000;
  }

  private void startMemory() throws Exception {
    store = MeasurementStore.open(dir.resolve("mem"), 1000, Clock.systemUTC(), watchPool);
    memServer =
        InProcessServerBuilder.forName("m1")
            .addService(new MemoryHostService(store, Clock.systemUTC()))
            .build()
            .start();
  }

  private void killMemory() throws Exception {
    memServer.shutdownNow();
    memServer.awaitTermination(5, TimeUnit.SECONDS);
    store.close();
  }

  @AfterEach
  void tearDown() throws Exception {
    client.shutdownNow();
    forecaster.close();
    killMemory();
    nsServer.shutdownNow();
    ns.close();
    watchPool.shutdownNow();
  }

  private void append(String series, int from, int to, double value) {
    ManagedChannel ch = InProcessChannelBuilder.forName("m1").build();
    try {
      SeriesPoints.Builder b = SeriesPoints.newBuilder().setSeries(series);
      for (int i = from; i < to; i++) {
        b.addPoints(Measurement.newBuilder().setTimestampMs(t0 + i * 1000L).setValue(value));
      }
      MemoryHostGrpc.newBlockingStub(ch).append(AppendRequest.newBuilder().addBatches(b).build());
    } finally {
      ch.shutdownNow();
    }
  }

  private Forecast forecast(String series) {
    return ForecasterGrpc.newBlockingStub(client)
        .getForecast(GetForecastRequest.newBuilder().setSeries(series).build());
  }

  @Test
  void forecasts_followAppends_andResumeAfterMemoryHostRestart() throws Exception {
    // History stored before the forecaster saw anything warms the battery up.
    append("cpu.availability:a", 0, 50, 0.25);
    await(() -> count("cpu.availability:a") == 50);
    assertEquals(0.25, forecast("cpu.availability:a").getValue(), 1e-9);

    append("cpu.availability:a", 50, 150, 0.75);
    await(() -> count("cpu.availability:a") == 150);
    Forecast f = forecast("cpu.availability:a");
    assertEquals(0.75, f.getValue(), 0.05);
    assertEquals(t0 + 149_000, f.getLast().getTimestampMs());
    assertTrue(f.getMethod().length() > 0);

    killMemory();
    startMemory();
    append("cpu.availability:a", 150, 160, 0.5);
    append("memory.free:a", 0, 5, 1024);
    await(() -> count("cpu.availability:a") == 160 && count("memory.free:a") == 5);

    List<Forecast> all =
        ForecasterGrpc.newBlockingStub(client)
            .getForecasts(
                GetForecastsRequest.newBuilder().addSeries("*:a").addSeries("tcp.*").build())
            .getForecastsList();
    assertEquals(2, all.size());
    assertEquals(
        List.of("tcp.*"),
        ForecasterGrpc.newBlockingStub(client)
            .getForecasts(
                GetForecastsRequest.newBuilder().addSeries("*:a").addSeries("tcp.*").build())
            .getNotFoundList());
  }

  @Test
  void localRegistry_ownsAndServesEveryShard_andRegistersNoSharding() throws Exception {
    assertEquals(org.netweather.model.shard.Shards.COUNT, forecaster.ownedShards().size());
    assertEquals(org.netweather.model.shard.Shards.COUNT, forecaster.servedShards().size());
    Registration r = ns.search(org.netweather.nameserver.Filter.parse("(kind=forecaster)")).get(0);
    assertEquals("forecaster@f", r.getName());
    assertTrue(!r.getAttributesMap().containsKey("sharding"), r.toString());
  }

  @Test
  void freshForecaster_warmsUpFromTheNewestWindowOnly() throws Exception {
    // The first forecaster must be following before the 500 points go in: had it subscribed
    // after, it would rightly have taken only the newest window of them.
    await(() -> store.watchStreams() > 0);
    append("cpu.availability:a", 0, 500, 0.25);
    await(() -> count("cpu.availability:a") == 500);
    forecaster.close();
    ForecasterProperties p =
        ForecasterProperties.defaults()
            .with(ForecasterProperties.NAMESERVER, "ns:1")
            .with(ForecasterProperties.HOST, "f")
            .with(ForecasterProperties.DISCOVERY_MS, 100L)
            .with(ForecasterProperties.BURN_IN, 10);
    forecaster =
        ForecasterServer.start(
            p, InProcessServerBuilder.forName("forecaster2"), InProcessChannels::forAddress);
    client.shutdownNow();
    client = InProcessChannelBuilder.forName("forecaster2").build();
    int window = BatteryLayout.standard().withBurnIn(10).warmUpPoints();
    assertEquals(101, window);
    await(() -> count("cpu.availability:a") == window);
    assertEquals(t0 + 499_000, forecast("cpu.availability:a").getLast().getTimestampMs());
    Thread.sleep(300);
    assertEquals(window, count("cpu.availability:a"), "no older point arrives later");
  }

  @Test
  void deletedSeries_disappearFromForecasts() throws Exception {
    append("cpu.availability:a", 0, 20, 0.25);
    append("cpu.availability:b", 0, 20, 0.5);
    await(() -> count("cpu.availability:a") == 20 && count("cpu.availability:b") == 20);
    ManagedChannel ch = InProcessChannelBuilder.forName("m1").build();
    try {
      assertEquals(
          1,
          MemoryHostGrpc.newBlockingStub(ch)
              .deleteSeries(
                  DeleteSeriesRequest.newBuilder()
                      .setPattern("cpu.availability:a")
                      .setForce(true)
                      .build())
              .getCount());
    } finally {
      ch.shutdownNow();
    }
    await(() -> count("cpu.availability:a") == -1);
    StatusRuntimeException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            StatusRuntimeException.class, () -> forecast("cpu.availability:a"));
    assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
    assertEquals(
        List.of("cpu.availability:b"),
        ForecasterGrpc.newBlockingStub(client)
            .getForecasts(GetForecastsRequest.newBuilder().addSeries("cpu.*").build())
            .getForecastsList()
            .stream()
            .map(Forecast::getSeries)
            .toList());
    // A watcher subscribing now hears of b alone, and then of b's new points only.
    java.util.concurrent.BlockingQueue<String> heard =
        new java.util.concurrent.LinkedBlockingQueue<>();
    ForecasterGrpc.newStub(client)
        .watchForecasts(
            GetForecastsRequest.newBuilder().addSeries("cpu.*").build(),
            new io.grpc.stub.StreamObserver<ForecastUpdate>() {
              @Override
              public void onNext(ForecastUpdate u) {
                heard.add(u.getForecast().getSeries() + "#" + u.getForecast().getCount());
              }

              @Override
              public void onError(Throwable t) {}

              @Override
              public void onCompleted() {}
            });
    assertEquals("cpu.availability:b#20", heard.poll(10, TimeUnit.SECONDS));
    append("cpu.availability:b", 20, 21, 0.5);
    assertEquals("cpu.availability:b#21", heard.poll(10, TimeUnit.SECONDS));
    assertEquals(null, heard.poll(200, TimeUnit.MILLISECONDS));
  }

  @Test
  void unknownSeries_isNotFound_andMalformedIsInvalid() {
    StatusRuntimeException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            StatusRuntimeException.class, () -> forecast("cpu.availability:nowhere"));
    assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
    e =
        org.junit.jupiter.api.Assertions.assertThrows(
            StatusRuntimeException.class, () -> forecast("nocolon"));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    e =
        org.junit.jupiter.api.Assertions.assertThrows(
            StatusRuntimeException.class,
            () ->
                ForecasterGrpc.newBlockingStub(client)
                    .getForecasts(GetForecastsRequest.getDefaultInstance()));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
  }

  private long count(String series) {
    try {
      return forecast(series).getCount();
    } catch (StatusRuntimeException e) {
      return -1;
    }
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 20_000;
    while (!condition.getAsBoolean()) {
      assertTrue(System.currentTimeMillis() < deadline, "timed out");
      Thread.sleep(20);
    }
  }
}
