package org.netweather.nameserver;

import java.util.HashMap;
import java.util.Map;

/**
 * How many watches may be open: in all, and per caller (one client connection), so a caller that
 * leaks streams cannot starve the others and the server's memory stays bounded.
 *
 * <p>Thread-safe.
 */
final class WatchLimits {
  private final int maxTotal;
  private final int maxPerCaller;
  private final Map<String, Integer> perCaller = new HashMap<>();
  private int total;

  WatchLimits(int maxTotal, int maxPerCaller) {
    if (maxTotal < 1 || maxPerCaller < 1) {
      throw new IllegalArgumentException("watch limits must be at least 1");
    }
    this.maxTotal = maxTotal;
    this.maxPerCaller = maxPerCaller;
  }

  /** Takes a slot for {@code caller}; null if granted, else which limit refused it. */
  synchronized String acquire(String caller) {
    if (total >= maxTotal) {
      return "the nameserver has " + total + " watches open, its limit (maxWatches)";
    }
    int mine = perCaller.getOrDefault(caller, 0);
    if (mine >= maxPerCaller) {
      return "this connection has "
          + mine
          + " watches open, the limit per caller "
          + "(maxWatchesPerCaller)";
    }
    perCaller.put(caller, mine + 1);
    total++;
    return null;
  }

  /** Gives back a slot {@link #acquire} granted. */
  synchronized void release(String caller) {
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

  synchronized int open() {
    return total;
  }
}
