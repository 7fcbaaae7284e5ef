package org.netweather.runtime;

import java.util.HashMap;
import java.util.Map;

/**
 * How many long-lived streams of one kind (watches, append streams) a daemon may hold open: in all,
 * and per caller, so a caller that leaks or floods streams cannot starve the others and the
 * daemon's memory stays bounded. Refusals name the config key of the limit that was hit.
 *
 * <p>Thread-safe.
 */
public final class StreamLimits {
  private final String daemon;
  private final String streams;
  private final String totalKey;
  private final String perCallerKey;
  private final int maxTotal;
  private final int maxPerCaller;
  private final Map<String, Integer> perCaller = new HashMap<>();
  private int total;

  /**
   * @param daemon the daemon's role as messages name it, e.g. {@code memory-host}
   * @param streams what is counted, as messages name it, e.g. {@code append streams}
   * @param totalKey the config key of {@code maxTotal}
   * @param perCallerKey the config key of {@code maxPerCaller}
   */
  public StreamLimits(
      String daemon,
      String streams,
      String totalKey,
      String perCallerKey,
      int maxTotal,
      int maxPerCaller) {
    if (maxTotal < 1 || maxPerCaller < 1) {
      throw new IllegalArgumentException(streams + " limits must be at least 1");
    }
    this.daemon = daemon;
    this.streams = streams;
    this.totalKey = totalKey;
    this.perCallerKey = perCallerKey;
    this.maxTotal = maxTotal;
    this.maxPerCaller = maxPerCaller;
  }

  /** Watch streams, limited by {@code maxWatches} and {@code maxWatchesPerCaller}. */
  public static StreamLimits watches(String daemon, int maxTotal, int maxPerCaller) {
    return new StreamLimits(
        daemon, "watches", "maxWatches", "maxWatchesPerCaller", maxTotal, maxPerCaller);
  }

  /** Takes a slot for {@code caller}; null if granted, else which limit refused it. */
  public synchronized String acquire(String caller) {
    if (total >= maxTotal) {
      return "the "
          + daemon
          + " has "
          + total
          + " "
          + streams
          + " open, its limit ("
          + totalKey
          + ")";
    }
    int mine = perCaller.getOrDefault(caller, 0);
    if (mine >= maxPerCaller) {
      return "caller "
          + caller
          + " has "
          + mine
          + " "
          + streams
          + " open on the "
          + daemon
          + ", the limit per caller ("
          + perCallerKey
          + ")";
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
