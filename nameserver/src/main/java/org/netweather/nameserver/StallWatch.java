package org.netweather.nameserver;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Notices that the nameserver could not serve for a while, so that the leases that ran out
 * meanwhile are not held against their holders: a restart grants every lease one more TTL, and a
 * stall must too. Two signs, both read on the monotonic clock (a step of the wall clock is not a
 * stall):
 *
 * <ol>
 *   <li>the lease sweeper, which runs every period, last ran far later than that: the process was
 *       paused (a long GC, a VM migrated or suspended) or the state's lock was held that long;
 *   <li>a heartbeat arrives after a silence in which none arrived at all, longer than one and a
 *       half renewal periods of the longest lease ever renewed: every holder renews every third of
 *       its TTL, so on a site with any daemon alive such a silence means none could reach the
 *       nameserver (a partition).
 * </ol>
 *
 * Both bounds are at least {@link #MIN_AWAY_MS}: shorter gaps are ordinary scheduling noise, and no
 * lease with a sane TTL is at risk from them.
 *
 * <p>Not thread-safe: the {@link Nameserver} calls it under its lock.
 */
final class StallWatch {
  static final long MIN_AWAY_MS = 30_000;

  private final LongSupplier nanoTime;
  private long sweepBoundNanos;
  private long lastSweep;
  private boolean sweeping;
  private long lastHeartbeat;
  private boolean heard;
  private long longestTtlMs;
  private long pendingAwayNanos;

  StallWatch(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /**
   * Arms the first sign: from now on the sweeper runs every {@code periodMs}, and a gap of three
   * periods (at least {@link #MIN_AWAY_MS}) between two sweeps is a stall.
   */
  void sweepsEvery(long periodMs) {
    sweepBoundNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(MIN_AWAY_MS, 3 * periodMs));
    lastSweep = nanoTime.getAsLong();
    sweeping = true;
  }

  /** The sweeper ran (call after {@link #awayMs}, which compares with the previous run). */
  void swept() {
    lastSweep = nanoTime.getAsLong();
  }

  /** A heartbeat arrived for a lease of {@code ttlMs}; call before judging any lease. */
  void heartbeat(long ttlMs) {
    long now = nanoTime.getAsLong();
    if (heard) {
      long silence = now - lastHeartbeat;
      long bound = TimeUnit.MILLISECONDS.toNanos(Math.max(MIN_AWAY_MS, longestTtlMs / 2));
      if (silence > bound) {
        pendingAwayNanos = Math.max(pendingAwayNanos, silence);
      }
    }
    heard = true;
    lastHeartbeat = now;
    longestTtlMs = Math.max(longestTtlMs, ttlMs);
  }

  /**
   * How long the nameserver was away, in milliseconds, if a sign says it was since last asked;
   * otherwise 0. Each absence is reported once.
   */
  long awayMs() {
    long away = pendingAwayNanos;
    pendingAwayNanos = 0;
    if (sweeping) {
      long now = nanoTime.getAsLong();
      long gap = now - lastSweep;
      if (gap > sweepBoundNanos) {
        away = Math.max(away, gap);
        lastSweep = now; // reported; the next sweep compares with this
      }
    }
    if (away > 0) {
      // One absence, reported once: the silence it caused is not a second one.
      lastHeartbeat = Math.max(lastHeartbeat, nanoTime.getAsLong());
    }
    return TimeUnit.NANOSECONDS.toMillis(away);
  }
}
