package org.netweather.memoryhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.ConsolidatedPoint;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.Resolution;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.testing.FakeClock;
import org.netweather.testing.Poll;

/**
 * Every periodic visit writes a series' archive back, even when no point arrived since the last:
 * the store reclaims a file of archives only once each one in it was written anew, so an idle
 * series left in place would keep a whole file of stale archives on disk. The rewritten archive
 * still holds what it held.
 */
class ArchiveRewriteTest {
  @TempDir Path dir;
  private final FakeClock clock = FakeClock.atDefaultStart();
  private final ExecutorService watchPool = Executors.newSingleThreadExecutor();
  private MeasurementStore store;

  @AfterEach
  void tearDown() throws Exception {
    if (store != null) {
      store.close();
    }
    watchPool.shutdownNow();
  }

  private long awaitWrites(long atLeast) throws InterruptedException {
    return Poll.until(store::archiveWrites, v -> v >= atLeast, Duration.ofSeconds(15));
  }

  private List<ConsolidatedPoint> rows(long base) throws Exception {
    return store
        .consolidated("user.x:idle", Resolution.RESOLUTION_MINUTE, base, base + 119_000)
        .orElseThrow();
  }

  @Test
  void anIdleSeries_hasItsArchiveWrittenAtEveryVisit_keepingItsRows() throws Exception {
    // Visited every second: the interval is one second.
    StoreOptions options =
        new StoreOptions(
            dir, 10_000, Duration.ZERO, 1_000, 1_000, 1_000, Duration.ofSeconds(1), 1_024);
    store = MeasurementStore.open(options, clock, watchPool);
    long base = (clock.millis() / 60_000 - 30) * 60_000;
    SeriesPoints.Builder b = SeriesPoints.newBuilder().setSeries("user.x:idle");
    for (int i = 0; i < 4; i++) {
      b.addPoints(Measurement.newBuilder().setTimestampMs(base + i * 30_000L).setValue(10 + i));
    }
    store.append(List.of(b.build())).get(10, TimeUnit.SECONDS);

    long first = awaitWrites(1);
    assertTrue(first >= 1, "the first visit writes the archive");
    List<ConsolidatedPoint> before = rows(base);
    assertFalse(before.isEmpty());
    // No point arrives any more; later visits still write it back, unchanged.
    long later = awaitWrites(first + 2);
    assertTrue(later >= first + 2, "writes after the first: " + (later - first));
    assertEquals(before, rows(base));
  }
}
