package org.netweather.sensor.daemon;

import java.util.function.LongSupplier;

/**
 * Bounds the network experiments callers ask for outside cliques ({@code SensorControl.Probe}): one
 * at a time, and at most {@code perMinute} a minute (a token bucket refilled continuously). Without
 * it, a caller with eight parallel bandwidth probes moves hundreds of MiB a second through this
 * host and ignores the clique's turn that keeps measurements from disturbing one another.
 *
 * <p>Thread-safe.
 */
final class AdHocProbeLimiter {
  private final int perMinute;
  private final LongSupplier nanos;
  private double tokens;
  private long lastNanos;
  private boolean busy;

  /**
   * @param perMinute probes allowed a minute; 0 refuses every one
   * @param nanos a monotonic clock
   */
  AdHocProbeLimiter(int perMinute, LongSupplier nanos) {
    this.perMinute = perMinute;
    this.nanos = nanos;
    this.tokens = perMinute;
    this.lastNanos = nanos.getAsLong();
  }

  /**
   * Takes a slot for one probe; release it with {@link #release()}.
   *
   * @return null if granted, else why not
   */
  synchronized String tryAcquire() {
    long now = nanos.getAsLong();
    tokens = Math.min(perMinute, tokens + (now - lastNanos) * perMinute / 60e9);
    lastNanos = now;
    if (perMinute == 0) {
      return "ad hoc network probes are off on this sensor (adHocProbesPerMinute is 0)";
    }
    if (busy) {
      return "another ad hoc network probe is running; one at a time";
    }
    if (tokens < 1) {
      return "more than adHocProbesPerMinute (" + perMinute + ") ad hoc network probes a minute";
    }
    tokens -= 1;
    busy = true;
    return null;
  }

  synchronized void release() {
    busy = false;
  }
}
