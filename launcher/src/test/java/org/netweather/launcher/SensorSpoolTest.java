package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Server;
import io.grpc.inprocess.InProcessServerBuilder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.memoryhost.MeasurementStore;
import org.netweather.memoryhost.MemoryHostService;
import org.netweather.memoryhost.StoreOptions;
import org.netweather.nameserver.Nameserver;
import org.netweather.nameserver.NameserverService;
import org.netweather.sensor.daemon.SensorProperties;
import org.netweather.sensor.daemon.SensorServer;
import org.netweather.testing.FakeClock;
import org.netweather.testing.InProcessChannels;

/**
 * A sensor keeps measuring while its memory-host is down; the spooled measurements arrive when the
 * memory-host returns, none lost and none twice.
 */
class SensorSpoolTest {
  @TempDir Path dir;
  private final ExecutorService pool = Executors.newFixedThreadPool(2);
  private Nameserver ns;
  private Server nsServer;
  private MeasurementStore store;
  private Server memServer;
  private SensorServer sensor;

  private void startMemory() throws Exception {
    startMemory(StoreOptions.defaults(dir.resolve("mem")));
  }

  private void startMemory(StoreOptions options) throws Exception {
    store = MeasurementStore.open(options, Clock.systemUTC(), pool);
    memServer =
        InProcessServerBuilder.forName("m3")
            .addService(new MemoryHostService(store, Clock.systemUTC()))
            .build()
            .start();
  }

  private void stopMemory() throws Exception {
    memServer.shutdownNow().awaitTermination();
    store.close();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (sensor != null) {
      sensor.close();
    }
    stopMemory();
    nsServer.shutdownNow().awaitTermination();
    ns.close();
    pool.shutdownNow();
  }

  private long stored(String series) {
    return store.count(series);
  }

  @Test
  void spool_holdsMeasurementsWhileMemoryHostIsDown_andDeliversThemAfter() throws Exception {
    ns = Nameserver.open(dir.resolve("ns"), Clock.systemUTC());
    nsServer =
        InProcessServerBuilder.forName("ns3").addService(new NameserverService(ns)).build().start();
    ns.register(
        Registration.newBuilder().setName("memory@m3").setKind("memory").setAddress("m3:1").build(),
        3600);
    startMemory();
    SensorProperties p =
        SensorProperties.defaults()
            .with(SensorProperties.HOST, "alpha")
            .with(SensorProperties.NAMESERVER, "ns3:1")
            .with(SensorProperties.DATA_DIR, dir.resolve("sensor").toString())
            .with(SensorProperties.PROBE_PORT, 0)
            .with(SensorProperties.MEMORY_PERIOD_SECONDS, 1)
            .with(
                SensorProperties.CPU_PERIOD_SECONDS,
                3600); // once at start; memory.free every second
    sensor =
        SensorServer.start(
            p, InProcessServerBuilder.forName("sensor3"), InProcessChannels::forAddress);

    await(() -> stored("memory.free:alpha") >= 2);
    stopMemory();
    long before = sensor.delivered();
    Thread.sleep(4_000);
    assertTrue(sensor.spooled() >= 3, "spooled " + sensor.spooled());
    assertEquals(before, sensor.delivered());

    startMemory();
    await(() -> sensor.spooled() == 0);
    // Every measurement taken so far is stored exactly once (timestamps are unique). The CPU
    // activity ran once, at start.
    sensor.close(); // nothing more is measured or delivered from here on
    long delivered = sensor.delivered();
    sensor = null;
    assertEquals(delivered, stored("memory.free:alpha") + stored("cpu.availability:alpha"));
  }

  @Test
  void spool_whenMemoryHostRefusesNewSeries_keepsThemSpooled_andDeliversWhenTheLimitLifts()
      throws Exception {
    ns = Nameserver.open(dir.resolve("ns"), Clock.systemUTC());
    nsServer =
        InProcessServerBuilder.forName("ns3").addService(new NameserverService(ns)).build().start();
    ns.register(
        Registration.newBuilder().setName("memory@m3").setKind("memory").setAddress("m3:1").build(),
        3600);
    // Room for one series only, and it is taken: every append that would create one of the
    // sensor's series is refused as a whole, and its measurements wait in the spool.
    startMemory(StoreOptions.defaults(dir.resolve("mem")).withLimits(1, 1000, 20_000));
    store
        .append(
            List.of(
                SeriesPoints.newBuilder()
                    .setSeries("memory.free:other")
                    .addPoints(Measurement.newBuilder().setTimestampMs(1_000).setValue(1))
                    .build()))
        .get();
    SensorProperties p =
        SensorProperties.defaults()
            .with(SensorProperties.HOST, "alpha")
            .with(SensorProperties.NAMESERVER, "ns3:1")
            .with(SensorProperties.DATA_DIR, dir.resolve("sensor").toString())
            .with(SensorProperties.PROBE_PORT, 0)
            .with(SensorProperties.MEMORY_PERIOD_SECONDS, 1)
            .with(SensorProperties.CPU_PERIOD_SECONDS, 3600);
    sensor =
        SensorServer.start(
            p, InProcessServerBuilder.forName("sensor3"), InProcessChannels::forAddress);
    Thread.sleep(4_000);
    assertEquals(1, store.seriesCount(), "the limit holds");
    assertEquals(0, sensor.delivered(), "nothing acknowledged while refused");
    assertEquals(0, stored("memory.free:alpha") + stored("cpu.availability:alpha"));
    assertTrue(sensor.spooled() >= 3, "spooled " + sensor.spooled());

    stopMemory();
    startMemory();
    await(() -> sensor.spooled() == 0);
    sensor.close();
    long delivered = sensor.delivered();
    sensor = null;
    assertTrue(delivered >= 4, "delivered " + delivered);
    assertEquals(delivered, stored("memory.free:alpha") + stored("cpu.availability:alpha"));
  }

  @Test
  void spool_whenTheAssignedMemoryHostsLeaseHasLapsed_waits_andDeliversOnceItIsBack()
      throws Exception {
    FakeClock clock = FakeClock.atDefaultStart();
    ns = Nameserver.open(dir.resolve("ns"), clock);
    nsServer =
        InProcessServerBuilder.forName("ns3").addService(new NameserverService(ns)).build().start();
    Registration memory =
        Registration.newBuilder().setName("memory@m3").setKind("memory").setAddress("m3:1").build();
    ns.register(memory, 60);
    clock.advance(Duration.ofSeconds(61)); // the nameserver now answers with no address
    startMemory();
    SensorProperties p =
        SensorProperties.defaults()
            .with(SensorProperties.HOST, "alpha")
            .with(SensorProperties.NAMESERVER, "ns3:1")
            .with(SensorProperties.DATA_DIR, dir.resolve("sensor").toString())
            .with(SensorProperties.PROBE_PORT, 0)
            .with(SensorProperties.MEMORY_PERIOD_SECONDS, 1)
            .with(SensorProperties.CPU_PERIOD_SECONDS, 3600)
            .with(SensorProperties.DELIVERY_INTERVAL_MS, 200L);
    sensor =
        SensorServer.start(
            p, InProcessServerBuilder.forName("sensor3"), InProcessChannels::forAddress);
    await(() -> sensor.spooled() >= 2);
    assertEquals(0, sensor.delivered());

    ns.register(memory, 3600);
    await(() -> sensor.delivered() >= 2 && sensor.spooled() <= 1);
    sensor.close();
    long delivered = sensor.delivered();
    sensor = null;
    assertEquals(delivered, stored("memory.free:alpha") + stored("cpu.availability:alpha"));
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 30_000;
    while (!condition.getAsBoolean()) {
      assertTrue(System.currentTimeMillis() < deadline, "timed out");
      Thread.sleep(50);
    }
  }
}
