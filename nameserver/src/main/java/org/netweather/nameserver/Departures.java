package org.netweather.nameserver;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.netweather.api.v1.MissingDaemon;
import org.netweather.api.v1.Registration;

/**
 * Daemons that were registered and are gone, kept for {@code maxAge} and at most {@code maxCount}
 * of them, so that {@code nws status} can show a daemon that died as missing rather than drop it
 * from the list. Both bounds matter: a site that churns through millions of short-lived
 * registrations must not grow the nameserver without end, and a daemon retired for good must stop
 * being reported some time. When full, the one that left first is forgotten first.
 *
 * <p>Not thread-safe: the {@link Nameserver} calls it under its lock.
 */
final class Departures {
  static final int DEFAULT_MAX_COUNT = 10_000;
  static final Duration DEFAULT_MAX_AGE = Duration.ofHours(24);

  private final int maxCount;
  private final long maxAgeMs;

  /** By name, for paged listing. */
  private final TreeMap<String, MissingDaemon> byName = new TreeMap<>();

  /** By departure, oldest first: which to forget when full or too old. */
  private final LinkedHashMap<String, Long> byDeparture = new LinkedHashMap<>();

  Departures(int maxCount, Duration maxAge) {
    if (maxCount < 0) {
      throw new IllegalArgumentException("missing daemons kept must be >= 0, not " + maxCount);
    }
    this.maxCount = maxCount;
    this.maxAgeMs = maxAge.toMillis();
  }

  /** Records that {@code r} left at {@code atMs}, last heard of at {@code lastSeenMs}. */
  void add(Registration r, long lastSeenMs, String reason, long atMs) {
    if (maxCount == 0) {
      return;
    }
    String name = r.getName();
    byDeparture.remove(name);
    byDeparture.put(name, atMs);
    byName.put(
        name,
        MissingDaemon.newBuilder()
            .setRegistration(r)
            .setLastSeenMs(lastSeenMs)
            .setReason(reason)
            .build());
    while (byDeparture.size() > maxCount) {
      forgetOldest();
    }
  }

  /** Forgets {@code name}: it registered again. */
  void remove(String name) {
    if (byDeparture.remove(name) != null) {
      byName.remove(name);
    }
  }

  /** Forgets those that left more than the age limit before {@code nowMs}. */
  void expire(long nowMs) {
    Iterator<Map.Entry<String, Long>> it = byDeparture.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, Long> e = it.next();
      if (nowMs - e.getValue() < maxAgeMs) {
        return; // in departure order: the rest are younger
      }
      it.remove();
      byName.remove(e.getKey());
    }
  }

  private void forgetOldest() {
    Iterator<String> oldest = byDeparture.keySet().iterator();
    String name = oldest.next();
    oldest.remove();
    byName.remove(name);
  }

  /** One page of those kept, by name, after {@code token}. */
  Page<MissingDaemon> page(String token, int pageSize) {
    return Page.of(byName, token, pageSize, d -> true, d -> d);
  }

  int size() {
    return byName.size();
  }
}
