package org.netweather.memoryhost;

import java.time.Clock;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Token buckets on series creation, one per caller: a caller may create {@code perMinute} series at
 * once and then that many per minute. The map of callers is bounded: idle buckets (full again) are
 * dropped, and beyond {@link #MAX_CALLERS} callers the rest share one bucket, so a flood of new
 * source addresses cannot grow it.
 */
final class CreationLimiter {
  static final int MAX_CALLERS = 10_000;
  private static final String OTHERS = "(other callers)";

  private final double perMinute;
  private final Clock clock;
  private final Map<String, double[]> buckets = new HashMap<>();

  CreationLimiter(int perMinute, Clock clock) {
    this.perMinute = perMinute;
    this.clock = clock;
  }

  /** Takes {@code n} tokens from the caller's bucket, or none and returns false. */
  synchronized boolean tryAcquire(String caller, int n) {
    long now = clock.millis();
    if (!buckets.containsKey(caller) && buckets.size() >= MAX_CALLERS) {
      dropIdle(now);
      if (buckets.size() >= MAX_CALLERS) {
        caller = OTHERS;
      }
    }
    double[] b = buckets.computeIfAbsent(caller, k -> new double[] {perMinute, now});
    refill(b, now);
    if (b[0] < n) {
      return false;
    }
    b[0] -= n;
    return true;
  }

  /** Gives back {@code n} tokens {@link #tryAcquire} took for an append that was then refused. */
  synchronized void giveBack(String caller, int n) {
    double[] b = buckets.get(caller);
    if (b == null) {
      b = buckets.get(OTHERS);
    }
    if (b != null) {
      b[0] = Math.min(perMinute, b[0] + n);
    }
  }

  private void refill(double[] b, long now) {
    b[0] = Math.min(perMinute, b[0] + (now - b[1]) * perMinute / 60_000.0);
    b[1] = now;
  }

  private void dropIdle(long now) {
    for (Iterator<double[]> it = buckets.values().iterator(); it.hasNext(); ) {
      double[] b = it.next();
      refill(b, now);
      if (b[0] >= perMinute) {
        it.remove();
      }
    }
  }
}
