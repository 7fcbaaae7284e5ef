package org.netweather.sensor.daemon;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sensor's clock as the site reads it: its own clock, corrected by the offset it learns from
 * the answers of the nameserver (every registration and heartbeat) and of the memory-hosts (every
 * append), once that offset passes {@link #BOUND_MS}. Within the bound nothing changes: the sensor
 * stamps with its own clock, as a site kept in time by NTP wants.
 *
 * <p>Why correct rather than keep refused measurements spooled: a memory-host refuses a point more
 * than a minute ahead of its clock, so a sensor whose clock runs fast would hold everything it
 * measures until its clock is fixed (and a slow clock is never refused: its points are stored hours
 * off, which is worse). Stamping with the estimate of the site's time delivers every measurement,
 * at the right time to within the estimate's error (half a round trip, and at most {@link
 * #STEADY_MS}, since a new estimate replaces the old only when it differs by more). The sensor says
 * it does so in its registration (see {@link SensorServer}) and warns.
 *
 * <p>The memory-hosts' answers win over the nameserver's: a memory-host is what judges timestamps
 * and stores them. The nameserver's answer matters at start, before anything was delivered.
 *
 * <p>Thread-safe.
 */
final class SiteClock {
  private static final Logger log = LoggerFactory.getLogger(SiteClock.class);

  /** Offsets up to this are left alone. */
  static final long BOUND_MS = 30_000;

  /** While off, the warning is repeated this often. */
  static final long WARN_EVERY_MS = 5 * 60_000;

  /** A new estimate within this of the current one is noise: stamps stay steady. */
  static final long STEADY_MS = 1_000;

  /**
   * A stamp this far ahead of the site's time was made before the offset was known: it is moved by
   * the offset when delivered (see {@link #deliverable}).
   */
  static final long AHEAD_MS = 5_000;

  /** Hears whether the sensor corrects its stamps, and by how much, when either changes. */
  interface Listener {
    void changed(boolean correcting, long offsetMs);
  }

  private final LongSupplier localMs;
  private volatile Listener listener = (c, o) -> {};
  private volatile long offsetMs;
  private boolean known;
  private boolean fromMemoryHost;
  private boolean warned;
  private long lastWarnMs;

  SiteClock(LongSupplier localMs) {
    this.localMs = localMs;
  }

  void listener(Listener l) {
    this.listener = l;
  }

  /** The sensor's own clock, uncorrected. */
  long localMs() {
    return localMs.getAsLong();
  }

  /** The time to stamp a measurement with: the local clock, corrected once off by the bound. */
  long nowMs() {
    long o = offsetMs;
    return localMs.getAsLong() + (correcting(o) ? o : 0);
  }

  /** The site's clock minus this sensor's, as last estimated (0 until an answer was heard). */
  long offsetMs() {
    return offsetMs;
  }

  /** Whether stamps are corrected now. */
  boolean correcting() {
    return correcting(offsetMs);
  }

  private static boolean correcting(long offset) {
    return Math.abs(offset) > BOUND_MS;
  }

  /**
   * A stamp to deliver. A stamp made by a fast clock before the offset was known lies ahead of the
   * site's time; it is moved by the offset, as if it had been corrected when taken. Others are
   * delivered as stamped.
   */
  long deliverable(long stampedMs) {
    long o = offsetMs;
    if (correcting(o) && o < 0 && stampedMs > localMs.getAsLong() + o + AHEAD_MS) {
      return stampedMs + o;
    }
    return stampedMs;
  }

  /**
   * An answer from {@code source} said its clock read {@code serverMs}, after a call of {@code
   * roundTripNanos}. Answers of the memory-hosts ({@code memoryHost}) win over the nameserver's.
   */
  void heard(long serverMs, long roundTripNanos, String source, boolean memoryHost) {
    if (serverMs <= 0) {
      return; // a daemon older than the field
    }
    boolean changed;
    boolean correcting;
    long offset;
    synchronized (this) {
      if (!memoryHost && fromMemoryHost) {
        return;
      }
      long now = localMs.getAsLong();
      // The answer was made about half-way through the call.
      long sample = serverMs + TimeUnit.NANOSECONDS.toMillis(roundTripNanos) / 2 - now;
      boolean wasCorrecting = correcting(offsetMs);
      long before = offsetMs;
      boolean first = !known || (memoryHost && !fromMemoryHost);
      if (first || Math.abs(sample - offsetMs) > STEADY_MS) {
        offsetMs = sample;
      }
      known = true;
      fromMemoryHost |= memoryHost;
      offset = offsetMs;
      correcting = correcting(offset);
      changed = correcting != wasCorrecting || (correcting && offset != before);
      if (correcting && (!warned || now - lastWarnMs >= WARN_EVERY_MS)) {
        log.warn(
            "this host's clock is {} s {} the site's ({} says {}): measurements are stamped with the"
                + " site's time instead, and this warning repeats every {} minutes until the clock"
                + " is fixed (is NTP running?)",
            String.format(java.util.Locale.ROOT, "%.1f", Math.abs(offset) / 1000.0),
            offset < 0 ? "ahead of" : "behind",
            source,
            java.time.Instant.ofEpochMilli(serverMs),
            WARN_EVERY_MS / 60_000);
        warned = true;
        lastWarnMs = now;
      } else if (!correcting && wasCorrecting) {
        log.info(
            "this host's clock is within {} s of the site's again ({} ms off): stamping with it",
            BOUND_MS / 1000,
            offset);
        warned = false;
      }
    }
    if (changed) {
      listener.changed(correcting, offset);
    }
  }
}
