package org.netweather.memoryhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.testing.FakeClock;

/**
 * The write queue is bounded by the points it holds, not only by the appends: while the writer is
 * held up, appends of 10 000 points are taken until a million points wait, and the next is refused
 * with nothing stored; once the queue drains, appends are taken again. One caller gets only its
 * share of the queue, so it cannot fill it for the others.
 */
class WriteQueueBoundTest {
  @TempDir Path dir;
  private final ExecutorService watchPool = Executors.newSingleThreadExecutor();
  private final GatedClock clock = new GatedClock();
  private MeasurementStore store;

  /** A clock on which the writer thread stops while the gate is closed. */
  private static final class GatedClock extends Clock {
    final FakeClock time = FakeClock.atDefaultStart();
    volatile CountDownLatch gate;
    final CountDownLatch writerStopped = new CountDownLatch(1);

    @Override
    public long millis() {
      CountDownLatch g = gate;
      if (g != null && Thread.currentThread().getName().equals("memory-writer")) {
        writerStopped.countDown();
        try {
          g.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return time.millis();
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone() {
      return time.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }

  @AfterEach
  void tearDown() throws Exception {
    if (clock.gate != null) {
      clock.gate.countDown();
    }
    if (store != null) {
      store.close();
    }
    watchPool.shutdownNow();
  }

  private List<SeriesPoints> batch(String series, int points) {
    SeriesPoints.Builder b = SeriesPoints.newBuilder().setSeries(series);
    long start = clock.time.millis() - points * 1000L;
    for (int i = 0; i < points; i++) {
      b.addPoints(Measurement.newBuilder().setTimestampMs(start + i * 1000L).setValue(i));
    }
    return List.of(b.build());
  }

  @Test
  void appendsBeyondAMillionQueuedPoints_areRefused_storingNothing_untilTheQueueDrains()
      throws Exception {
    store = MeasurementStore.open(StoreOptions.defaults(dir), clock, watchPool);
    store.append(batch("user.x:first", 1)).get(10, TimeUnit.SECONDS);

    clock.gate = new CountDownLatch(1);
    CompletableFuture<MeasurementStore.Result> stuck = store.append(batch("user.x:first", 2));
    assertTrue(clock.writerStopped.await(10, TimeUnit.SECONDS), "the writer is held up");

    List<CompletableFuture<MeasurementStore.Result>> taken = new ArrayList<>();
    CompletableFuture<MeasurementStore.Result> refused = null;
    for (int i = 0; i < 200 && refused == null; i++) {
      // From eight callers, each within its share: the bound in all is what refuses.
      CompletableFuture<MeasurementStore.Result> f =
          store.append(batch("user.x:b" + i, 10_000), "caller" + i % 8);
      if (f.isCompletedExceptionally()) {
        refused = f;
      } else {
        taken.add(f);
      }
    }
    int perBound = (int) (MeasurementStore.QUEUE_POINTS / 10_000);
    // The held-up append (2 points) may still be queued, or taken by the writer already.
    assertTrue(
        taken.size() == perBound || taken.size() == perBound - 1,
        taken.size() + " appends of 10 000 points were queued");
    assertTrue(refused != null, "an append beyond the bound is refused at once");
    ExecutionException e = assertThrows(ExecutionException.class, refused::get);
    assertTrue(e.getCause() instanceof RejectedExecutionException, e.getCause().toString());
    assertTrue(
        e.getCause().getMessage().contains("write queue is full"), e.getCause().getMessage());
    String refusedSeries = "user.x:b" + taken.size();

    clock.gate.countDown();
    clock.gate = null;
    // Its first point was stored before; the second is new.
    assertEquals(1, stuck.get(30, TimeUnit.SECONDS).stored());
    for (CompletableFuture<MeasurementStore.Result> f : taken) {
      assertEquals(10_000, f.get(60, TimeUnit.SECONDS).stored());
    }
    assertTrue(store.last(refusedSeries, 1).isEmpty(), "the refused append stored nothing");
    assertEquals(10_000, store.last("user.x:b0", 20_000).orElseThrow().size());

    // Drained: big appends are taken again.
    assertEquals(
        10_000, store.append(batch("user.x:after", 10_000)).get(30, TimeUnit.SECONDS).stored());
  }

  @Test
  void oneCaller_isRefusedBeyondItsShare_whileOthersAreStillTaken() throws Exception {
    // 30 new series a minute per caller, and the clock stands still: no refill.
    store =
        MeasurementStore.open(
            StoreOptions.defaults(dir).withLimits(2_000_000, 1_000, 30), clock, watchPool);
    store.append(batch("user.x:first", 1)).get(10, TimeUnit.SECONDS);
    clock.gate = new CountDownLatch(1);
    CompletableFuture<MeasurementStore.Result> stuck = store.append(batch("user.x:first", 2));
    assertTrue(clock.writerStopped.await(10, TimeUnit.SECONDS), "the writer is held up");

    // The default share: 1 024 appends of 4 096, and 250 000 points of a million.
    List<CompletableFuture<MeasurementStore.Result>> taken = new ArrayList<>();
    CompletableFuture<MeasurementStore.Result> refused = null;
    for (int i = 0; i < 100 && refused == null; i++) {
      CompletableFuture<MeasurementStore.Result> f =
          store.append(batch("user.x:flood" + i, 10_000), "flooder");
      if (f.isCompletedExceptionally()) {
        refused = f;
      } else {
        taken.add(f);
      }
    }
    assertEquals(25, taken.size(), "appends of 10 000 points within the flooder's share");
    ExecutionException e = assertThrows(ExecutionException.class, refused::get);
    assertTrue(e.getCause() instanceof RejectedExecutionException, e.getCause().toString());
    assertTrue(
        e.getCause().getMessage().contains("flooder has 25 appends (250000 points)"),
        e.getCause().getMessage());
    assertTrue(e.getCause().getMessage().contains("maxQueuedPerCaller"), e.getCause().getMessage());

    CompletableFuture<MeasurementStore.Result> other =
        store.append(batch("user.x:other", 10_000), "other");
    assertTrue(!other.isCompletedExceptionally(), "another caller is still taken");

    clock.gate.countDown();
    clock.gate = null;
    assertEquals(1, stuck.get(30, TimeUnit.SECONDS).stored());
    for (CompletableFuture<MeasurementStore.Result> f : taken) {
      assertEquals(10_000, f.get(60, TimeUnit.SECONDS).stored());
    }
    assertEquals(10_000, other.get(30, TimeUnit.SECONDS).stored());
    assertTrue(store.last("user.x:flood25", 1).isEmpty(), "the refused append stored nothing");
    // Its queued appends written, the flooder has its share again, and the refused append did
    // not use up series creation: 25 of its 30 were, so five more new series are taken.
    List<SeriesPoints> five = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      five.addAll(batch("user.x:flood-after" + i, 2_000));
    }
    assertEquals(10_000, store.append(five, "flooder").get(30, TimeUnit.SECONDS).stored());
  }
}
