package org.netweather.sensor.plogp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.netweather.sensor.Ticker;
import org.netweather.sensor.probe.PLogPConnection;

/**
 * {@link PLogPChannel} over a probe connection: blocks on each timing, and gives up with an {@link
 * UncheckedIOException} once the whole measurement has used its time budget, so a slow or noisy
 * link cannot hold the sensor's skill thread for long. Not for event-loop threads.
 */
final class ProbePLogPChannel implements PLogPChannel {
  private static final int CLOCK_READS = 10_000;

  private final PLogPConnection connection;
  private final Ticker ticker;
  private final long deadline;
  private final double clockOverhead;

  ProbePLogPChannel(PLogPConnection connection, Ticker ticker, long budgetNanos) {
    this.connection = connection;
    this.ticker = ticker;
    this.deadline = ticker.nanoTime() + budgetNanos;
    this.clockOverhead = measureClock(ticker);
  }

  /** Seconds one clock reading costs, averaged over many. */
  static double measureClock(Ticker ticker) {
    long sink = 0;
    long t0 = ticker.nanoTime();
    for (int i = 0; i < CLOCK_READS; i++) {
      sink += ticker.nanoTime() & 1;
    }
    long t1 = ticker.nanoTime();
    return sink < 0 ? 0 : (t1 - t0) / 1e9 / (CLOCK_READS + 1);
  }

  /**
   * Unreported timings of every kind for {@code nanos} first: they wake both event loops, the path
   * and the JIT. A cold JVM's RTT(0) falls about fourfold over its first few hundred round trips on
   * loopback, and RTT(0), measured first, is the reference of every g(m). Time rather than a count
   * bounds it, so a long path pays a second at most.
   */
  void warmUp(long nanos) {
    long end = ticker.nanoTime() + nanos;
    while (ticker.nanoTime() < end) {
      burst(100, 0);
      roundTrip(0);
      roundTrip(4096);
      sendOverhead(4096);
      receiveOverhead(4096, 0);
    }
  }

  @Override
  public double burst(int count, int bytes) {
    return await(connection.burst(count, bytes));
  }

  @Override
  public double roundTrip(int bytes) {
    return await(connection.burst(1, bytes));
  }

  @Override
  public double sendOverhead(int bytes) {
    return await(connection.sendOverhead(bytes));
  }

  @Override
  public double receiveOverhead(int bytes, double delaySeconds) {
    return await(connection.receiveOverhead(bytes, (long) (delaySeconds * 1e9)));
  }

  @Override
  public double clockOverhead() {
    return clockOverhead;
  }

  private double await(CompletableFuture<Long> timing) {
    long left = deadline - ticker.nanoTime();
    try {
      if (left <= 0) {
        timing.cancel(false);
        throw new TimeoutException("pLogP measurement ran out of its time budget");
      }
      return timing.get(left, TimeUnit.NANOSECONDS) / 1e9;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new IOException("interrupted", e));
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      throw new UncheckedIOException(c instanceof IOException io ? io : new IOException(c));
    } catch (TimeoutException e) {
      connection.close();
      throw new UncheckedIOException(new IOException(e.getMessage(), e));
    }
  }
}
