package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.GetForecastRequest;
import org.netweather.api.v1.GetSnapshotRequest;
import org.netweather.api.v1.HostSnapshot;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.ProxyGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.forecaster.ForecasterProperties;
import org.netweather.forecaster.ForecasterServer;
import org.netweather.memoryhost.MeasurementStore;
import org.netweather.memoryhost.MemoryHostService;
import org.netweather.nameserver.Nameserver;
import org.netweather.nameserver.NameserverService;
import org.netweather.proxy.ProxyProperties;
import org.netweather.proxy.ProxyServer;
import org.netweather.testing.InProcessChannels;

/** The proxy keeps serving its cluster across a forecaster restart, in-process. */
class ProxyForecasterRestartTest {
  @TempDir Path dir;
  private final ExecutorService pool = Executors.newFixedThreadPool(2);
  private Nameserver ns;
  private Server nsServer;
  private MeasurementStore store;
  private Server memServer;
  private ForecasterServer forecaster;
  private ProxyServer proxy;
  private ManagedChannel client;

  @BeforeEach
  void setUp() throws Exception {
    ns = Nameserver.open(dir.resolve("ns"), Clock.systemUTC());
    nsServer =
        InProcessServerBuilder.forName("ns2").addService(new NameserverService(ns)).build().start();
    ns.register(
        Registration.newBuilder().setName("memory@m").setKind("memory").setAddress("m2:1").build(),
        3600);
    store = MeasurementStore.open(dir.resolve("mem"), 1000, Clock.systemUTC(), pool);
    memServer =
        InProcessServerBuilder.forName("m2")
            .addService(new MemoryHostService(store, Clock.systemUTC()))
            .build()
            .start();
    forecaster = startForecaster();
    ProxyProperties pp =
        ProxyProperties.defaults()
            .with(ProxyProperties.NAMESERVER, "ns2:1")
            .with(ProxyProperties.CLUSTER, "c")
            .with(ProxyProperties.HOSTS, List.of("a", "b"))
            .with(ProxyProperties.HOST, "p")
            .with(ProxyProperties.DISCOVERY_MS, 100L);
    proxy =
        ProxyServer.start(
            pp, InProcessServerBuilder.forName("proxy2"), InProcessChannels::forAddress);
    client = InProcessChannelBuilder.forName("proxy2").build();
  }

  private ForecasterServer startForecaster() throws Exception {
    ForecasterProperties fp =
        ForecasterProperties.defaults()
            .with(ForecasterProperties.NAMESERVER, "ns2:1")
            .with(ForecasterProperties.HOST, "f2")
            .with(ForecasterProperties.DISCOVERY_MS, 100L);
    return ForecasterServer.start(
        fp, InProcessServerBuilder.forName("f2"), InProcessChannels::forAddress);
  }

  @AfterEach
  void tearDown() throws Exception {
    client.shutdownNow();
    proxy.close();
    forecaster.close();
    memServer.shutdownNow().awaitTermination();
    store.close();
    nsServer.shutdownNow().awaitTermination();
    ns.close();
    pool.shutdownNow();
  }

  private void put(String series, double value) {
    putAt(series, System.currentTimeMillis(), value);
  }

  private HostSnapshot host(String name) {
    ClusterSnapshot s =
        ProxyGrpc.newBlockingStub(client)
            .getSnapshot(GetSnapshotRequest.newBuilder().setCluster("c").build());
    // The proxy rebuilds snapshots in the background: a host may not be in the first ones.
    return s.getHostsList().stream()
        .filter(h -> h.getHost().equals(name))
        .findFirst()
        .orElse(HostSnapshot.getDefaultInstance());
  }

  @Test
  void snapshot_followsForecasts_acrossForecasterRestart() throws Exception {
    put("cpu.availability:a", 0.25);
    await(() -> host("a").getCpuAvailability().getValue() == 0.25);
    ClusterSnapshot s =
        ProxyGrpc.newBlockingStub(client).getSnapshot(GetSnapshotRequest.getDefaultInstance());
    assertEquals(List.of("a->b", "b->a"), s.getMissingPairsList());
    assertTrue(!s.getHosts(0).getCpuAvailability().getStale());

    forecaster.close();
    Thread.sleep(200);
    forecaster = startForecaster();
    Thread.sleep(5);
    put("cpu.availability:a", 0.75);
    put("memory.free:b", 512);
    await(
        () ->
            host("a").getCpuAvailability().getValue() != 0.25
                && host("b").getMemoryFree().getValue() == 512);
  }

  private void putAt(String series, long timestampMs, double value) {
    ManagedChannel ch = InProcessChannelBuilder.forName("m2").build();
    try {
      MemoryHostGrpc.newBlockingStub(ch)
          .append(
              AppendRequest.newBuilder()
                  .addBatches(
                      SeriesPoints.newBuilder()
                          .setSeries(series)
                          .addPoints(
                              Measurement.newBuilder().setTimestampMs(timestampMs).setValue(value)))
                  .build());
    } finally {
      ch.shutdownNow();
    }
  }

  private Forecast forecast(String series) {
    ManagedChannel ch = InProcessChannelBuilder.forName("f2").build();
    try {
      return ForecasterGrpc.newBlockingStub(ch)
          .getForecast(GetForecastRequest.newBuilder().setSeries(series).build());
    } finally {
      ch.shutdownNow();
    }
  }

  /**
   * One absurd value (1e308 where the resource has no range; a petabyte of free memory where it
   * has) makes the forecast wrong for a step at most: forecast, errors and snapshot stay finite and
   * follow the series on.
   */
  @Test
  void absurdValue_forecastAndSnapshotStayFiniteAndMoveOn() throws Exception {
    long t0 = System.currentTimeMillis() - 3_600_000;
    for (int i = 0; i < 60; i++) {
      putAt("app.rate:b", t0 + i * 1000L, 100 + i % 5);
      putAt("memory.free:b", t0 + i * 1000L, 500 + i % 5);
    }
    putAt("app.rate:b", t0 + 60_000, 1e308);
    putAt("memory.free:b", t0 + 60_000, 1e9);
    for (int i = 61; i < 120; i++) {
      putAt("app.rate:b", t0 + i * 1000L, 200 + i % 5);
      putAt("memory.free:b", t0 + i * 1000L, 700 + i % 5);
    }
    long last = t0 + 119_000;
    await(
        () ->
            lastFed("app.rate:b") == last
                && lastFed("memory.free:b") == last
                && host("b").getMemoryFree().getValue() > 650);
    for (String series : List.of("app.rate:b", "memory.free:b")) {
      Forecast f = forecast(series);
      assertTrue(Double.isFinite(f.getMse()) && Double.isFinite(f.getMae()), f.toString());
      assertTrue(Double.isFinite(f.getInterval().getUpper()), f.toString());
    }
    // Moved on to the new level (about 202 and 702) rather than stuck at the spike or at the old
    // level (about 102 and 502). The proxy refreshes in the background, so its value may be a few
    // measurements behind the forecaster's.
    assertEquals(202, forecast("app.rate:b").getValue(), 15);
    assertEquals(702, forecast("memory.free:b").getValue(), 15);
    HostSnapshot b = host("b");
    assertTrue(Double.isFinite(b.getMemoryFree().getValue()));
    assertEquals(702, b.getMemoryFree().getValue(), 30);
  }

  private long lastFed(String series) {
    try {
      return forecast(series).getLast().getTimestampMs();
    } catch (io.grpc.StatusRuntimeException e) {
      return -1; // not followed yet
    }
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 30_000;
    while (!condition.getAsBoolean()) {
      assertTrue(System.currentTimeMillis() < deadline, "timed out");
      Thread.sleep(50);
    }
  }
}
