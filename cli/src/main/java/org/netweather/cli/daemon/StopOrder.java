package org.netweather.cli.daemon;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * What {@code nws up} started, stopped last first, each stop logged with how long it took, so that
 * an operator sees the process go down in order and which part, if any, held it up.
 *
 * <p>Thread-safety: {@link #add} and {@link #stopAll} are synchronized; a second {@link #stopAll}
 * finds nothing left and logs nothing.
 */
final class StopOrder {
  private record Part(String name, AutoCloseable close) {}

  private final Deque<Part> parts = new ArrayDeque<>();
  private final Logger log;
  private final LongSupplier nanoTime;

  StopOrder(Logger log, LongSupplier nanoTime) {
    this.log = log;
    this.nanoTime = nanoTime;
  }

  /** Takes {@code close}, to be run before everything added earlier. */
  synchronized void add(String name, AutoCloseable close) {
    parts.push(new Part(name, close));
  }

  /** Stops every part, last added first; a failure is logged and the rest are still stopped. */
  synchronized void stopAll() {
    if (parts.isEmpty()) {
      return;
    }
    long start = nanoTime.getAsLong();
    log.info("stopping NetWeather: {}", String.join(", ", parts.stream().map(Part::name).toList()));
    while (!parts.isEmpty()) {
      Part p = parts.pop();
      long t = nanoTime.getAsLong();
      try {
        p.close().close();
        log.info("stopped {} in {} ms", p.name(), millisSince(t));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        log.warn("stopping {} interrupted after {} ms", p.name(), millisSince(t));
      } catch (Exception e) {
        log.warn("stopping {} failed after {} ms", p.name(), millisSince(t), e);
      }
    }
    log.info("stopped in {} ms", millisSince(start));
  }

  private long millisSince(long t) {
    return TimeUnit.NANOSECONDS.toMillis(nanoTime.getAsLong() - t);
  }
}
