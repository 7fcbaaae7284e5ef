package org.netweather.runtime;

import java.util.HashMap;
import java.util.Map;

/**
 * How many watch streams a daemon may hold open: in all, and per caller, so a caller that leaks or
 * floods streams cannot starve the others and the daemon's memory stays bounded. Refusals name the
 * config key of the limit that was hit.
 *
 * <p>Thread-safe.
 */
public final class WatchLimits {
  private final String daemon;
  private final int maxTotal;
  private final int maxPerCaller;
  private final Map<String, Integer> perCaller = new HashMap<>();
  private int total;

  /**
   * @param daemon the daemon's role as messages name it, e.g. {@code memory-host}
   */
  public WatchLimits(String daemon, int maxTotal, int maxPerCaller) {
    this.daemon = daemon;
    if (maxTotal < 1 || maxPerCaller < 1) {
      throw new IllegalArgumentException("watch limits must be at least 1");
    }
    this.maxTotal = maxTotal;
    this.maxPerCaller = maxPerCaller;
  }

  /** Takes a slot for {@code caller}; null if granted, else which limit refused it. */
  public synchronized String acquire(String caller) {
    if (total >= maxTotal) {
      return "the " + daemon + " has " + total + " watches open, its limit (maxWatches)";
    }
    int mine = perCaller.getOrDefault(caller, 0);
    if (mine >= maxPerCaller) {
      return "caller "
          + caller
          + " has "
          + mine
          + " watches open on the "
          + daemon
          + ", the limit per caller (maxWatchesPerCaller)";
    }
    perCaller.put(caller, mine + 1);
    total++;
    return null;
  }

  /** Gives back a slot {@link #acquire} granted. */
  public synchronized void release(String caller) {
    Integer mine = perCaller.get(caller);
    if (mine == null) {
      return;
    }
    if (mine <= 1) {
      perCaller.remove(caller);
    } else {
      perCaller.put(caller, mine - 1);
    }
    total--;
  }

  public synchronized int open() {
    return total;
  }
}
