package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.read.ListAppender;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.FetchRequest;
import org.netweather.api.v1.FetchResponse;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.memoryhost.MeasurementStore;
import org.netweather.memoryhost.MemoryHostService;
import org.netweather.memoryhost.StoreOptions;
import org.netweather.nameserver.Nameserver;
import org.netweather.nameserver.NameserverService;
import org.netweather.sensor.daemon.SensorProperties;
import org.netweather.sensor.daemon.SensorServer;
import org.netweather.sensor.spool.Spool;
import org.netweather.sensor.spool.SpoolOptions;
import org.netweather.testing.InProcessChannels;
import org.netweather.testing.MetricValues;
import org.slf4j.LoggerFactory;

/**
 * A sensor whose clock is wrong (issue 29, item 3), through its injected clock, against a real
 * nameserver and a real memory-host in this process: its measurements are stored at the right
 * times, it warns, and its metric and registration show the offset. The memory-host's own clock is
 * the true one and refuses points more than a minute ahead of it.
 */
class SensorClockSkewTest {
  private static final long TEN_MINUTES = Duration.ofMinutes(10).toMillis();
  private static final long THREE_HOURS = Duration.ofHours(3).toMillis();

  @TempDir Path dir;
  private final ExecutorService pool = Executors.newFixedThreadPool(2);
  private final LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
  private final Logger clockLog = ctx.getLogger("org.netweather.sensor.daemon.SiteClock");
  private final ListAppender<ILoggingEvent> events = new ListAppender<>();
  private Nameserver ns;
  private Server nsServer;
  private MeasurementStore store;
  private Server memServer;
  private ManagedChannel memChannel;
  private SensorServer sensor;

  private final List<TurboFilter> saved = new ArrayList<>();

  @BeforeEach
  void captureLog() {
    events.start();
    clockLog.addAppender(events);
    // The process folds repeated lines once a minute; an earlier test may have said the same.
    saved.addAll(ctx.getTurboFilterList());
    ctx.resetTurboFilterList();
  }

  @AfterEach
  void tearDown() throws Exception {
    clockLog.detachAppender(events);
    saved.forEach(ctx::addTurboFilter);
    if (sensor != null) {
      sensor.close();
    }
    memChannel.shutdownNow();
    memServer.shutdownNow().awaitTermination();
    store.close();
    nsServer.shutdownNow().awaitTermination();
    ns.close();
    pool.shutdownNow();
  }

  /** Starts the nameserver (with {@code nsClock}) and a memory-host on the true clock. */
  private void startSite(Clock nsClock) throws Exception {
    ns = Nameserver.open(dir.resolve("ns"), nsClock);
    nsServer =
        InProcessServerBuilder.forName("ns-skew")
            .addService(new NameserverService(ns))
            .build()
            .start();
    ns.register(
        Registration.newBuilder()
            .setName("memory@mskew")
            .setKind("memory")
            .setAddress("mskew:1")
            .build(),
        3600);
    store =
        MeasurementStore.open(StoreOptions.defaults(dir.resolve("mem")), Clock.systemUTC(), pool);
    memServer =
        InProcessServerBuilder.forName("mskew")
            .addService(new MemoryHostService(store, Clock.systemUTC()))
            .build()
            .start();
    memChannel = InProcessChannelBuilder.forName("mskew").build();
  }

  private void startSensor(LongSupplier hostClock) throws Exception {
    SensorProperties p =
        SensorProperties.defaults()
            .with(SensorProperties.HOST, "skewed")
            .with(SensorProperties.NAMESERVER, "ns-skew:1")
            .with(SensorProperties.DATA_DIR, dir.resolve("sensor").toString())
            .with(SensorProperties.PROBE_PORT, 0)
            .with(SensorProperties.MEMORY_PERIOD_SECONDS, 1)
            .with(SensorProperties.CPU_PERIOD_SECONDS, 3600)
            .with(SensorProperties.DELIVERY_INTERVAL_MS, 200L);
    sensor =
        SensorServer.start(
            p,
            InProcessServerBuilder.forName("sensor-skew"),
            InProcessChannels::forAddress,
            hostClock);
  }

  /** Spools measurements as the sensor would have taken them before it knew its clock was off. */
  private void spoolBeforeStart(LongSupplier hostClock) throws Exception {
    try (Spool spool =
        Spool.open(dir.resolve("sensor").resolve("spool"), SpoolOptions.defaults())) {
      long t = hostClock.getAsLong();
      for (int i = 3; i >= 1; i--) {
        spool.append("memory.free:skewed", t - i * 1000L, 1024);
      }
    }
  }

  private FetchResponse stored() {
    return MemoryHostGrpc.newBlockingStub(memChannel)
        .fetch(FetchRequest.newBuilder().setSeries("memory.free:skewed").setLast(10_000).build());
  }

  /** Every stored point lies between {@code fromMs} and now, by the true clock. */
  private void assertStoredAtTrueTimes(long fromMs, int atLeast) throws Exception {
    await(() -> store.count("memory.free:skewed") >= atLeast);
    long to = System.currentTimeMillis();
    FetchResponse r = stored();
    for (Measurement m : r.getPointsList()) {
      assertTrue(
          m.getTimestampMs() >= fromMs && m.getTimestampMs() <= to + 1_000,
          "stored at "
              + m.getTimestampMs()
              + ", outside ["
              + fromMs
              + ", "
              + to
              + "] by the true clock");
    }
  }

  private boolean warned(String words) {
    return events.list.stream()
        .anyMatch(e -> e.getLevel() == Level.WARN && e.getFormattedMessage().contains(words));
  }

  private double offsetSeconds() {
    return MetricValues.of("netweather_sensor_clock_offset_seconds", "daemon", "sensor");
  }

  private void assertSpoolDrainsWithNothingLost() throws Exception {
    await(() -> sensor.spooled() == 0);
    sensor.close();
    long delivered = sensor.delivered();
    sensor = null;
    assertEquals(
        delivered,
        store.count("memory.free:skewed") + store.count("cpu.availability:skewed"),
        "every measurement delivered is stored once");
  }

  @Test
  void clockTenMinutesFast_measurementsStoredAtTrueTimes_warned_offsetShown() throws Exception {
    long start = System.currentTimeMillis();
    LongSupplier fast = () -> System.currentTimeMillis() + TEN_MINUTES;
    startSite(Clock.systemUTC());
    spoolBeforeStart(fast);
    startSensor(fast);

    assertStoredAtTrueTimes(start - 5_000, 6);
    assertTrue(warned("ahead of"), "the warning names the clock as ahead: " + events.list);
    assertEquals(-600, offsetSeconds(), 2, "the metric shows the offset");
    await(
        () ->
            ns.lookup("sensor@skewed")
                .map(r -> r.getAttributesMap())
                .orElseThrow()
                .containsKey("clock"));
    Registration reg = ns.lookup("sensor@skewed").orElseThrow();
    assertEquals("corrected", reg.getAttributesOrThrow("clock"));
    long offset = Long.parseLong(reg.getAttributesOrThrow("clock_offset_ms"));
    assertEquals(-TEN_MINUTES, offset, 2_000);
    assertSpoolDrainsWithNothingLost();
  }

  @Test
  void clockThreeHoursSlow_measurementsStoredAtTrueTimes_warned_offsetShown() throws Exception {
    long start = System.currentTimeMillis();
    LongSupplier slow = () -> System.currentTimeMillis() - THREE_HOURS;
    startSite(Clock.systemUTC());
    startSensor(slow);

    assertStoredAtTrueTimes(start - 1_000, 4);
    assertTrue(warned("behind"), "the warning names the clock as behind: " + events.list);
    assertEquals(10_800, offsetSeconds(), 2, "the metric shows the offset");
    assertSpoolDrainsWithNothingLost();
  }

  @Test
  void memoryHostRefusesFastStamps_theyStaySpooled_areCounted_andGoAgainAtTrueTimes()
      throws Exception {
    long start = System.currentTimeMillis();
    LongSupplier fast = () -> System.currentTimeMillis() + TEN_MINUTES;
    // The nameserver's clock is as fast as the sensor's: only the memory-host can tell.
    startSite(Clock.offset(Clock.systemUTC(), Duration.ofMillis(TEN_MINUTES)));
    double refusedBefore =
        MetricValues.of(
            "netweather_sensor_refused_measurements",
            "daemon",
            "sensor",
            "reason",
            "future_timestamp");
    startSensor(fast);

    assertStoredAtTrueTimes(start - 5_000, 4);
    double refused =
        MetricValues.of(
            "netweather_sensor_refused_measurements",
            "daemon",
            "sensor",
            "reason",
            "future_timestamp");
    assertTrue(refused > refusedBefore, "refusals are counted by reason");
    assertTrue(warned("ahead of"));
    assertEquals(-600, offsetSeconds(), 2, "learned from the memory-host's refusal");
    assertSpoolDrainsWithNothingLost();
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 30_000;
    while (!condition.getAsBoolean()) {
      assertTrue(System.currentTimeMillis() < deadline, "timed out");
      Thread.sleep(50);
    }
  }
}
