package org.netweather.scheduler.swap;

import java.util.HashMap;
import java.util.Map;

/**
 * Anti-ping-pong memory: a host swapped out at t may not be swapped back in before t + cd·C_swap
 * (docs/schedulers/swapping.md, "Our policy" step 5, test W3).
 */
public final class Cooldown {
  private final Map<String, Double> until = new HashMap<>();

  /** Records that {@code host} was swapped out at {@code now} by a swap costing {@code cost}. */
  public void swappedOut(String host, double now, double cost, double factor) {
    until.merge(host, now + factor * cost, Math::max);
  }

  public boolean eligible(String host, double now) {
    return now >= until.getOrDefault(host, Double.NEGATIVE_INFINITY);
  }

  /** When the host becomes eligible again (−∞ if it always was). */
  public double until(String host) {
    return until.getOrDefault(host, Double.NEGATIVE_INFINITY);
  }
}
