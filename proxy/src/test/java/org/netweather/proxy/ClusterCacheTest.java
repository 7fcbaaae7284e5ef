package org.netweather.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.PairSnapshot;

class ClusterCacheTest {
  private final AtomicLong nanos = new AtomicLong();
  private final AtomicLong millis = new AtomicLong(1_790_000_000_000L);
  private final List<String> fetched = new ArrayList<>();
  private final ClusterCache.Settings settings =
      new ClusterCache.Settings(
          3.0, 10_000, 300_000, Duration.ofSeconds(30), Duration.ofHours(1), 0);
  private final ClusterCache cache =
      new ClusterCache(
          "c",
          settings,
          series -> {
            fetched.add(series);
            return forecast(series, 7, millis.get() - 1000);
          },
          Runnable::run,
          (Ticker) nanos::get,
          millis::get);

  private static Forecast forecast(String series, double value, long measuredMs) {
    return Forecast.newBuilder()
        .setSeries(series)
        .setValue(value)
        .setMse(0.01)
        .setMae(0.1)
        .setMethod("last-value")
        .setCount(10)
        .setLast(Measurement.newBuilder().setTimestampMs(measuredMs).setValue(value))
        .build();
  }

  private void advance(long ms) {
    millis.addAndGet(ms);
    nanos.addAndGet(ms * 1_000_000);
  }

  @Test
  void snapshot_listsHostsPairsAndMissingPairs() {
    cache.setHosts(List.of("a", "b", "c"));
    cache.put(forecast("cpu.availability:a", 0.9, millis.get()));
    cache.put(forecast("tcp.bandwidth:a->b", 940, millis.get()));
    cache.put(forecast("tcp.latency:a->b", 0.2, millis.get()));
    cache.put(forecast("tcp.bandwidth:b->a", 930, millis.get()));
    ClusterSnapshot s = cache.snapshot();
    assertEquals(3, s.getHostsCount());
    assertEquals(0.9, s.getHosts(0).getCpuAvailability().getValue());
    assertFalse(s.getHosts(1).hasCpuAvailability());
    assertEquals(2, s.getPairsCount());
    PairSnapshot ab = s.getPairs(0);
    assertEquals("a", ab.getSrc());
    assertEquals(940, ab.getBandwidth().getValue());
    // b->a lacks latency; every pair with c lacks everything.
    assertEquals(List.of("a->c", "b->a", "b->c", "c->a", "c->b"), s.getMissingPairsList());
  }

  /** A cache whose forecaster knows nothing new, so refreshes change nothing. */
  private ClusterCache quiet() {
    return new ClusterCache(
        "c", settings, s -> null, Runnable::run, (Ticker) nanos::get, millis::get);
  }

  @Test
  void staleness_followsTheSeriesPeriod() {
    ClusterCache cache = quiet();
    cache.setHosts(List.of("a"));
    long t = millis.get();
    cache.put(forecast("cpu.availability:a", 0.5, t - 20_000));
    cache.put(forecast("cpu.availability:a", 0.5, t));
    // Period 20 s: stale after 60 s.
    advance(59_000);
    assertFalse(cache.snapshot().getHosts(0).getCpuAvailability().getStale());
    assertEquals(59_000, cache.snapshot().getHosts(0).getCpuAvailability().getAgeMs());
    advance(2_000);
    assertTrue(cache.snapshot().getHosts(0).getCpuAvailability().getStale());
  }

  @Test
  void staleness_unknownPeriod_usesDefaultBound() {
    ClusterCache cache = quiet();
    cache.setHosts(List.of("a"));
    cache.put(forecast("memory.free:a", 1024, millis.get()));
    advance(299_000);
    assertFalse(cache.snapshot().getHosts(0).getMemoryFree().getStale());
    advance(2_000);
    assertTrue(cache.snapshot().getHosts(0).getMemoryFree().getStale());
  }

  @Test
  void refresh_entryNotRenewedByStream_isFetchedAgain() {
    cache.setHosts(List.of("a"));
    cache.put(forecast("cpu.availability:a", 0.5, millis.get()));
    advance(31_000);
    cache.snapshot(); // a read past refreshAfter triggers the reload
    assertEquals(List.of("cpu.availability:a"), fetched);
    assertEquals(7, cache.snapshot().getHosts(0).getCpuAvailability().getValue());
  }

  @Test
  void refresh_findingNothingNew_doesNotChangeTheVersion() {
    Forecast same = forecast("cpu.availability:a", 0.5, millis.get());
    ClusterCache cache =
        new ClusterCache("c", settings, s -> same, Runnable::run, (Ticker) nanos::get, millis::get);
    cache.setHosts(List.of("a"));
    cache.put(same);
    long before = cache.snapshotVersion();
    advance(31_000);
    cache.snapshot(); // triggers the reload, which fetches an equal forecast
    assertEquals(before, cache.snapshotVersion());
    cache.put(forecast("cpu.availability:a", 0.6, millis.get()));
    assertTrue(cache.snapshotVersion() > before);
  }

  @Test
  void expiry_dropsSeriesNobodyMeasures() {
    ClusterCache noRefresh = quiet();
    noRefresh.setHosts(List.of("a"));
    noRefresh.put(forecast("cpu.availability:a", 0.5, millis.get()));
    advance(Duration.ofHours(2).toMillis());
    assertFalse(noRefresh.snapshot().getHosts(0).hasCpuAvailability());
  }

  @Test
  void snapshot_unchanged_isShared() {
    ClusterCache slow =
        new ClusterCache(
            "c",
            new ClusterCache.Settings(
                3, 10_000, 300_000, Duration.ofSeconds(30), Duration.ofHours(1), 1_000),
            s -> null,
            Runnable::run,
            (Ticker) nanos::get,
            millis::get);
    slow.setHosts(List.of("a", "b"));
    ClusterSnapshot first = slow.snapshot();
    assertSame(first, slow.snapshot());
    slow.put(forecast("cpu.availability:a", 0.5, millis.get()));
    assertNotSame(first, slow.snapshot());
  }
}
