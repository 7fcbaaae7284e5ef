package org.netweather.sensor.clique;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The clock and the single thread every clique state machine runs on.
 *
 * <p>Every task runs on one serial executor, so a clique's state needs no locks and callbacks from
 * gRPC or probe threads are posted back here. Tests use a fake whose time moves only when told.
 */
public interface CliqueScheduler {

  /** Monotonic nanoseconds. */
  long nanoTime();

  /** Runs {@code task} after {@code delayNanos} (0: as soon as possible), serially with others. */
  Cancellable schedule(Runnable task, long delayNanos);

  /** Runs {@code task} as soon as possible, serially with others. */
  default void execute(Runnable task) {
    schedule(task, 0);
  }

  /** A scheduled task that can be called off. */
  @FunctionalInterface
  interface Cancellable {
    void cancel();
  }

  /**
   * A scheduler over a single-threaded executor, which the caller owns; its thread must be the only
   * one the executor has, or tasks would run concurrently.
   */
  static CliqueScheduler of(ScheduledExecutorService singleThread) {
    return new CliqueScheduler() {
      @Override
      public long nanoTime() {
        return System.nanoTime();
      }

      @Override
      public Cancellable schedule(Runnable task, long delayNanos) {
        ScheduledFuture<?> f = singleThread.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
        return () -> f.cancel(false);
      }
    };
  }
}
