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
import java.util.function.IntFunction;
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

  /**
   * Opens the store, stores one point, then holds the writer up on the append of the next; returns
   * that append (one point of it new).
   */
  private CompletableFuture<MeasurementStore.Result> holdWriter(StoreOptions options)
      throws Exception {
    store = MeasurementStore.open(options, clock, watchPool);
    store.append(batch("user.x:first", 1)).get(10, TimeUnit.SECONDS);
    clock.gate = new CountDownLatch(1);
    CompletableFuture<MeasurementStore.Result> stuck = store.append(batch("user.x:first", 2));
    assertTrue(clock.writerStopped.await(10, TimeUnit.SECONDS), "the writer is held up");
    return stuck;
  }

  private void releaseWriter() {
    clock.gate.countDown();
    clock.gate = null;
  }

  /** The appends a flood got queued, and why the next was refused. */
  private record Flood(
      List<CompletableFuture<MeasurementStore.Result>> taken, RejectedExecutionException refusal) {}

  /**
   * Appends 10 000 new points to series {@code prefix0}, {@code prefix1}, ... from {@code caller}
   * of each index until one append is refused (at once, as the queue refuses).
   */
  private Flood flood(String prefix, IntFunction<String> caller) {
    List<CompletableFuture<MeasurementStore.Result>> taken = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      CompletableFuture<MeasurementStore.Result> f =
          store.append(batch(prefix + i, 10_000), caller.apply(i));
      if (!f.isCompletedExceptionally()) {
        taken.add(f);
        continue;
      }
      ExecutionException e = assertThrows(ExecutionException.class, f::get);
      assertTrue(e.getCause() instanceof RejectedExecutionException, e.getCause().toString());
      return new Flood(taken, (RejectedExecutionException) e.getCause());
    }
    throw new AssertionError("200 appends of 10 000 points were all queued");
  }

  @Test
  void appendsBeyondAMillionQueuedPoints_areRefused_storingNothing_untilTheQueueDrains()
      throws Exception {
    CompletableFuture<MeasurementStore.Result> stuck = holdWriter(StoreOptions.defaults(dir));
    // From eight callers, each within its share: the bound in all is what refuses.
    Flood flood = flood("user.x:b", i -> "caller" + i % 8);
    List<CompletableFuture<MeasurementStore.Result>> taken = flood.taken();
    int perBound = (int) (MeasurementStore.QUEUE_POINTS / 10_000);
    // The held-up append (2 points) may still be queued, or taken by the writer already.
    assertTrue(
        taken.size() == perBound || taken.size() == perBound - 1,
        taken.size() + " appends of 10 000 points were queued");
    assertTrue(
        flood.refusal().getMessage().contains("write queue is full"), flood.refusal().getMessage());
    String refusedSeries = "user.x:b" + taken.size();

    releaseWriter();
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
    CompletableFuture<MeasurementStore.Result> stuck =
        holdWriter(StoreOptions.defaults(dir).withLimits(2_000_000, 1_000, 30));

    // The default share: 1 024 appends of 4 096, and 250 000 points of a million.
    Flood flood = flood("user.x:flood", i -> "flooder");
    List<CompletableFuture<MeasurementStore.Result>> taken = flood.taken();
    assertEquals(25, taken.size(), "appends of 10 000 points within the flooder's share");
    String why = flood.refusal().getMessage();
    assertTrue(why.contains("flooder has 25 appends (250000 points)"), why);
    assertTrue(why.contains("maxQueuedPerCaller"), why);

    CompletableFuture<MeasurementStore.Result> other =
        store.append(batch("user.x:other", 10_000), "other");
    assertTrue(!other.isCompletedExceptionally(), "another caller is still taken");

    releaseWriter();
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
